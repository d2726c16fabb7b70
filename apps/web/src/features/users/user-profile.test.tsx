import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '../../lib/session-storage';
import { fakeApi, ids } from '../../test/fake-api';
import { renderApp } from '../../test/render';

describe('/users/profile/{id}', () => {
  it('shows a visitor who is not signed in only a sign-in prompt, without asking the server anything', async () => {
    const { calls } = fakeApi([]);
    renderApp(`/users/profile/${ids.doctor}`);
    expect(await screen.findByTestId('profile-sign-in')).toHaveTextContent('Sign in to see this profile.');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
    expect(calls).toHaveLength(0);
  });

  it('shows a signed-in colleague the name, role and email', async () => {
    localStorage.setItem(storageKeys.token, 'token-1');
    fakeApi([
      {
        path: `/api/users/${ids.doctor}`,
        body: {
          id: ids.doctor,
          firstName: 'Daniela',
          lastName: 'Ortiz',
          email: 'doctor@pathwell.demo',
          profileImage: null,
          role: 'Doctor',
          isParent: false,
          isChild: false,
          twoFactorEnabled: false,
        },
      },
    ]);
    renderApp(`/users/profile/${ids.doctor}`);
    const card = await screen.findByTestId('profile-card');
    expect(card).toHaveTextContent('Daniela Ortiz');
    expect(card).toHaveTextContent('Doctor');
    expect(card).toHaveTextContent('doctor@pathwell.demo');
  });

  it('says the profile is not available when the server does not find it', async () => {
    localStorage.setItem(storageKeys.token, 'token-1');
    fakeApi([{ path: `/api/users/${ids.doctor}`, status: 404, body: { error: 'User not found', code: 'NOT_FOUND' } }]);
    renderApp(`/users/profile/${ids.doctor}`);
    expect(await screen.findByTestId('profile-error')).toHaveTextContent('This profile is not available to you.');
  });
});
