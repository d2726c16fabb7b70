import { describe, expect, it, vi } from 'vitest';
import { fakeApi, ids } from '../test/fake-api';
import { appointmentApi } from '../features/appointments/appointments.api';
import { instanceSettingsApi } from '../features/instance-settings/instance-settings.api';
import { ApiError, api, setInvalidTokenHandler } from './api-client';
import { sessionKeys, storageKeys } from './session-storage';

describe('api client', () => {
  it('clears exactly the section 4 session keys when the token is not valid', async () => {
    fakeApi([
      {
        path: '/api/session',
        status: 401,
        body: { error: 'Token is not valid', msg: 'Token is not valid', code: 'UNAUTHENTICATED' },
      },
    ]);
    for (const key of sessionKeys) localStorage.setItem(key, 'x');
    localStorage.setItem(storageKeys.rememberedEmail, 'admin@pathwell.demo');
    localStorage.setItem(storageKeys.language, 'es');
    localStorage.setItem(storageKeys.caseStatus, 'Cases in Progress');
    const onInvalid = vi.fn();
    setInvalidTokenHandler(onInvalid);

    const failure = await api.get('/api/session').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).isInvalidToken).toBe(true);
    expect(onInvalid).toHaveBeenCalledOnce();
    expect(Object.keys(localStorage).sort()).toEqual(
      [storageKeys.caseStatus, storageKeys.language, storageKeys.rememberedEmail].sort(),
    );
    expect([...sessionKeys].sort()).toEqual(
      ['token', 'userId', 'userRole', 'isParent', 'isChild', 'clinicId', 'doctorId', 'expireTime'].sort(),
    );
  });

  it.each([
    ['a CSV download', '/api/patientappointments/exporttocsv', () => appointmentApi.exportCsv({ language: 'en' } as never)],
    [
      'a file upload',
      '/api/instancesettings/files/logo',
      () => instanceSettingsApi.uploadFile('logo' as never, new File(['x'], 'logo.png')),
    ],
    [
      'an agreement opened in a new tab',
      '/api/instancesettings/files/agreement',
      () => instanceSettingsApi.openFile('/api/instancesettings/files/agreement'),
    ],
  ])('%s answered "Token is not valid" ends the session like any other call', async (_name, path, call) => {
    fakeApi([
      {
        method: path.endsWith('agreement') ? 'GET' : 'POST',
        path,
        status: 401,
        body: { error: 'Token is not valid', msg: 'Token is not valid', code: 'UNAUTHENTICATED' },
      },
    ]);
    for (const key of sessionKeys) localStorage.setItem(key, 'x');
    const onInvalid = vi.fn();
    setInvalidTokenHandler(onInvalid);

    const failure = await call().catch((error: unknown) => error);

    expect((failure as ApiError).isInvalidToken).toBe(true);
    expect(onInvalid).toHaveBeenCalledOnce();
    expect(sessionKeys.some((key) => localStorage.getItem(key) !== null)).toBe(false);
  });

  it('keeps the session on a sign-in 401, which is not a token problem', async () => {
    fakeApi([
      {
        method: 'POST',
        path: '/api/users/authenticate',
        status: 401,
        body: { error: 'Unable to login. Please check email and password', code: 'UNAUTHENTICATED' },
      },
    ]);
    localStorage.setItem(storageKeys.token, 'still-here');
    const onInvalid = vi.fn();
    setInvalidTokenHandler(onInvalid);

    await expect(api.post('/api/users/authenticate', { email: 'a@b.co', password: 'x' })).rejects.toBeInstanceOf(ApiError);

    expect(onInvalid).not.toHaveBeenCalled();
    expect(localStorage.getItem(storageKeys.token)).toBe('still-here');
  });

  it('sends the bearer token and the stored clinic, and the all-clinics view only where a route accepts it', async () => {
    const { calls } = fakeApi([
      { path: '/api/session', body: {} },
      { path: '/api/users/providers', body: [] },
    ]);
    localStorage.setItem(storageKeys.token, 'abc');
    localStorage.setItem(storageKeys.clinicId, ids.clinic);
    await api.get('/api/users/providers');
    localStorage.setItem(storageKeys.clinicId, 'all');
    await api.get('/api/session', { allClinics: true });
    await api.get('/api/users/providers');

    expect(calls.map((call) => [call.headers.get('Authorization'), call.headers.get('ClinicId')])).toEqual([
      ['Bearer abc', ids.clinic],
      ['Bearer abc', 'all'],
      ['Bearer abc', null],
    ]);
  });

  it('reports a call that got no answer as having no response', async () => {
    fakeApi([{ path: '/api/session', networkError: true }]);
    const failure = (await api.get('/api/session').catch((error: unknown) => error)) as ApiError;
    expect(failure.hasResponse).toBe(false);
  });
});
