import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, ids, makeSession } from '../test/fake-api';
import { renderApp } from '../test/render';
import { storageKeys } from '../lib/session-storage';
import { routeTable } from './route-table';

const signedInAs = (role: 'Admin' | 'Staff' | 'Doctor', id = ids.admin) => {
  localStorage.setItem(storageKeys.token, 'token-1');
  localStorage.setItem(storageKeys.userId, id);
  localStorage.setItem(storageKeys.userRole, role);
};

const shellCalls = [
  { path: '/api/users/providers', body: [] },
  { path: '/api/parent/clinics', body: [] },
];

describe('routes', () => {
  it('sends an unauthenticated visit to /signin and returns to the first path after sign-in', async () => {
    fakeApi([
      {
        method: 'POST',
        path: '/api/users/authenticate',
        body: { twoFactorRequired: false, token: 'token-1', id: ids.admin, role: 'Admin', isParent: false, isChild: false },
      },
      { path: '/api/session', body: makeSession() },
      ...shellCalls,
    ]);
    const { router } = renderApp('/resources/list?from=2024');

    await screen.findByRole('button', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/signin');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/email address/i), 'admin@pathwell.demo');
    await user.type(screen.getByLabelText(/^password/i), 'Pathwell#2026');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/resources/list'));
    expect(router.state.location.search).toBe('?from=2024');
    expect(await screen.findByTestId('page-coming-soon')).toBeInTheDocument();
    expect(screen.getByTestId('side-menu')).toBeInTheDocument();
  });

  it('does not remember an account page as the place to return to', async () => {
    fakeApi([]);
    const { router } = renderApp('/change-password');
    await screen.findByRole('button', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/signin');
    expect(sessionStorage.getItem('returnTo')).toBe('/change-password');

    sessionStorage.clear();
    await router.navigate('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(sessionStorage.getItem('returnTo')).toBeNull();
  });

  // The first lazy page import can take over a second on a busy machine.
  it('opens the patient list from the root, or the campaigns dashboard in a campaign-only clinic', async () => {
    signedInAs('Admin');
    fakeApi([{ path: '/api/session', body: makeSession() }, ...shellCalls]);
    const first = renderApp('/');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/patients/list'), { timeout: 5000 });
    first.unmount();

    signedInAs('Admin');
    const campaignOnly = makeSession();
    campaignOnly.flags.campaignOnly = true;
    fakeApi([{ path: '/api/session', body: campaignOnly }, ...shellCalls]);
    const second = renderApp('/');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/patientcampaigns/dashboard'), { timeout: 5000 });
    second.unmount();

    // A Doctor there cannot open the campaigns dashboard: the root opens a page of their own menu.
    signedInAs('Doctor');
    const doctor = makeSession({ user: { role: 'Doctor' } });
    doctor.flags.campaignOnly = true;
    fakeApi([{ path: '/api/session', body: doctor }, ...shellCalls]);
    const third = renderApp('/');
    await waitFor(() => expect(third.router.state.location.pathname).toBe('/patientcampaigns/results'), { timeout: 5000 });
    expect(screen.queryByText('Looks like you are not authorized to access this page.')).not.toBeInTheDocument();
  });

  it('shows the unauthorized page for a menu path the role does not see', async () => {
    signedInAs('Staff');
    fakeApi([{ path: '/api/session', body: makeSession({ user: { role: 'Staff' } }) }, ...shellCalls]);
    renderApp('/admin/dashboard');
    expect(await screen.findByText('Looks like you are not authorized to access this page.')).toBeInTheDocument();
  });

  it.each([
    ['Doctor', '/patientcampaigns/dashboard'],
    ['Staff', '/patientcampaigns/dashboard'],
    ['Staff', '/patientcampaigns/results'],
    ['Doctor', '/patienthotlist/dashboard'],
  ] as const)('shows a %s the unauthorized page at %s (decision 0049)', async (role, path) => {
    signedInAs(role);
    fakeApi([{ path: '/api/session', body: makeSession({ user: { role } }) }, ...shellCalls]);
    renderApp(path);
    // The first lazy page import can take over a second on a busy machine.
    expect(
      await screen.findByText('Looks like you are not authorized to access this page.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('signs out through the user menu: revokes the token, clears the session and lands on /signin', async () => {
    signedInAs('Admin');
    localStorage.setItem(storageKeys.rememberedEmail, 'admin@pathwell.demo');
    const { calls } = fakeApi([
      { path: '/api/session', body: makeSession() },
      { method: 'POST', path: '/api/users/signout', status: 204 },
      ...shellCalls,
    ]);
    // A page with no data calls of its own, so the only calls are the shell's and the sign-out.
    const { router } = renderApp('/resources/list');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'), { timeout: 3000 });
    const signOutAt = calls.findIndex((call) => call.path === '/api/users/signout');
    expect(signOutAt).toBeGreaterThanOrEqual(0);
    expect(calls.slice(signOutAt + 1)).toEqual([]);
    expect(Object.keys(localStorage)).toEqual([storageKeys.rememberedEmail]);
  });

  it('shows the 404 page for an unknown path', async () => {
    fakeApi([]);
    renderApp('/no/such/page');
    expect(await screen.findByTestId('page-not-found')).toBeInTheDocument();
  });

  it('sends the person to sign in when the stored token is no longer valid', async () => {
    signedInAs('Admin');
    fakeApi([
      {
        path: '/api/session',
        status: 401,
        body: { error: 'Token is not valid', msg: 'Token is not valid', code: 'UNAUTHENTICATED' },
      },
    ]);
    const { router } = renderApp('/patients/list');
    await screen.findByRole('button', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/signin');
    expect(localStorage.getItem(storageKeys.token)).toBeNull();
  });

  it('forgets the stored token and user id when loading the current user fails', async () => {
    signedInAs('Admin');
    localStorage.setItem(storageKeys.clinicId, ids.otherClinic);
    fakeApi([{ path: '/api/session', status: 403, body: { error: 'You do not belong to this clinic', code: 'FORBIDDEN' } }]);
    const { router } = renderApp('/patients/list');
    await screen.findByRole('button', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/signin');
    expect(localStorage.getItem(storageKeys.token)).toBeNull();
    expect(localStorage.getItem(storageKeys.userId)).toBeNull();
  });

  it('registers every auth route of the spec as auth and every patient-facing route as open', () => {
    const access = (path: string) => routeTable.find((entry) => entry.path === path)?.access;
    expect(access('/patients/list')).toBe('auth');
    expect(access('/my-account')).toBe('auth');
    expect(access('/signin')).toBe('open');
    expect(access('/patients/intake/:id?/:token?/:appointmentId?')).toBe('open');
    expect(new Set(routeTable.map((entry) => entry.path.toLowerCase())).size).toBe(routeTable.length);
  });
});
