import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, ids } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { storageKeys } from '../../lib/session-storage';
import { SignInForm } from './sign-in-form';

const PASSWORD = 'Pathwell#2026';

async function fillAndSubmit(email = 'admin@pathwell.demo', { remember = false } = {}) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/email address/i), email);
  await user.type(screen.getByLabelText(/^password/i), PASSWORD);
  if (remember) await user.click(screen.getByLabelText(/remember me/i));
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('sign-in form', () => {
  it("shows the server's message when the server refuses the sign-in", async () => {
    fakeApi([
      {
        method: 'POST',
        path: '/api/users/authenticate',
        status: 403,
        body: { error: 'Your account is waiting for a clinic administrator to give you access.', code: 'FORBIDDEN' },
      },
    ]);
    renderAt(<SignInForm />, { path: '/signin' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your account is waiting for a clinic administrator to give you access.',
    );
  });

  it('shows the login failure text of section 8 on a 401', async () => {
    fakeApi([
      {
        method: 'POST',
        path: '/api/users/authenticate',
        status: 401,
        body: { error: 'Unable to login. Please check email and password', code: 'UNAUTHENTICATED' },
      },
    ]);
    renderAt(<SignInForm />, { path: '/signin' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to login. Please check email and password');
    expect(localStorage.getItem(storageKeys.token)).toBeNull();
  });

  it('shows the API-unavailable text when no answer comes back', async () => {
    fakeApi([{ method: 'POST', path: '/api/users/authenticate', networkError: true }]);
    renderAt(<SignInForm />, { path: '/signin' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There is a problem with the API. Please contact System Administrator.',
    );
  });

  it('checks the fields before calling the server', async () => {
    const { calls } = fakeApi([]);
    renderAt(<SignInForm />, { path: '/signin' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please enter Email Address')).toBeInTheDocument();
    expect(screen.getByText('Please enter password')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('remember me keeps only the email address, never the password', async () => {
    fakeApi([
      {
        method: 'POST',
        path: '/api/users/authenticate',
        body: { twoFactorRequired: false, token: 'token-1', id: ids.admin, role: 'Admin', isParent: false, isChild: false },
      },
    ]);
    renderAt(<SignInForm />, { path: '/signin' });
    await fillAndSubmit('Admin@Pathwell.demo', { remember: true });

    await screen.findByTestId('elsewhere');
    expect(localStorage.getItem(storageKeys.rememberedEmail)).toBe('admin@pathwell.demo');
    const stored = [...Object.values(localStorage), ...Object.values(sessionStorage)].join('\n');
    expect(stored).not.toContain(PASSWORD);
    expect(localStorage.getItem(storageKeys.token)).toBe('token-1');
  });

  it('forgets a remembered email when remember me is unticked', async () => {
    localStorage.setItem(storageKeys.rememberedEmail, 'admin@pathwell.demo');
    fakeApi([
      {
        method: 'POST',
        path: '/api/users/authenticate',
        body: { twoFactorRequired: false, token: 'token-1', id: ids.admin, role: 'Admin', isParent: false, isChild: false },
      },
    ]);
    renderAt(<SignInForm />, { path: '/signin' });
    const user = userEvent.setup();
    expect(await screen.findByLabelText(/email address/i)).toHaveValue('admin@pathwell.demo');
    await user.click(screen.getByLabelText(/remember me/i));
    await user.type(screen.getByLabelText(/^password/i), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByTestId('elsewhere');
    expect(localStorage.getItem(storageKeys.rememberedEmail)).toBeNull();
  });

  it('asks for the emailed code when two-step verification is on, and stores a Doctor as the selected doctor', async () => {
    const challengeId = '55555555-5555-4555-8555-555555555555';
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/users/authenticate', body: { twoFactorRequired: true, challengeId } },
      {
        method: 'POST',
        path: '/api/users/twofactor/verify',
        body: { twoFactorRequired: false, token: 'token-2', id: ids.doctor, role: 'Doctor', isParent: false, isChild: false },
      },
    ]);
    renderAt(<SignInForm />, { path: '/signin' });
    const user = await fillAndSubmit('doctor@pathwell.demo');

    await user.click(await screen.findByLabelText('Digit 1 of 6'));
    await user.keyboard('123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    await screen.findByTestId('elsewhere');
    expect(calls.at(-1)?.body).toEqual({ challengeId, code: '123456' });
    expect(localStorage.getItem(storageKeys.doctorId)).toBe(ids.doctor);
  });
});
