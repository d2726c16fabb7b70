import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, ids } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { SetPasswordForm } from './set-password-form';

const NEW_PASSWORD = 'Brighter#Day7';

async function submitNewPassword() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^new password/i), NEW_PASSWORD);
  await user.type(screen.getByLabelText(/^confirm new password/i), NEW_PASSWORD);
  await user.click(screen.getByRole('button', { name: 'Save password' }));
  return user;
}

describe('set-password form', () => {
  it('offers to resend the set-up email when the link is refused, then goes to sign-in', async () => {
    const { calls } = fakeApi([
      {
        method: 'POST',
        path: '/api/users/setPassword',
        status: 400,
        body: { error: 'This link is not valid or has expired', code: 'VALIDATION', fields: { token: 'invalid' } },
      },
      { method: 'POST', path: '/api/users/resendWelcomeEmail', body: { message: 'sent' } },
    ]);
    const { router } = renderAt(<SetPasswordForm id={ids.admin} token="old-token" />, { path: '/set-password' });
    const user = await submitNewPassword();

    const dialog = await screen.findByRole('dialog', { name: 'Failed to Set up Account' });
    expect(dialog).toHaveTextContent(
      'We failed to verify your information. Would you like us to resend the email to set up your account?',
    );
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'OK' }));

    const success = await screen.findByRole('dialog', { name: 'Success!' });
    expect(success).toHaveTextContent('We have resent the email');
    expect(calls.find((call) => call.path === '/api/users/resendWelcomeEmail')?.body).toEqual({ id: ids.admin });

    await user.click(within(success).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
  });

  it('closes the failure dialog on Close and stays on the page', async () => {
    const { calls } = fakeApi([
      {
        method: 'POST',
        path: '/api/users/setPassword',
        status: 400,
        body: { error: 'This link is not valid or has expired', code: 'VALIDATION' },
      },
    ]);
    const { router } = renderAt(<SetPasswordForm id={ids.admin} token="old-token" />, { path: '/set-password' });
    const user = await submitNewPassword();
    await screen.findByRole('dialog', { name: 'Failed to Set up Account' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/set-password');
    expect(calls.some((call) => call.path === '/api/users/resendWelcomeEmail')).toBe(false);
  });

  it("shows 'Unable to set password' when no answer comes back", async () => {
    fakeApi([{ method: 'POST', path: '/api/users/setPassword', networkError: true }]);
    renderAt(<SetPasswordForm id={ids.admin} token="t" />, { path: '/set-password' });
    await submitNewPassword();
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to set password');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the success dialog, then goes to sign-in after 3 seconds', async () => {
    fakeApi([{ method: 'POST', path: '/api/users/setPassword', body: { message: 'ok' } }]);
    const { router } = renderAt(<SetPasswordForm id={ids.admin} token="t" />, { path: '/set-password' });
    await submitNewPassword();
    expect(await screen.findByRole('dialog', { name: 'Success!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/set-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'), { timeout: 4000 });
  });

  it('shows the password rule of section 5 next to the field', async () => {
    fakeApi([]);
    renderAt(<SetPasswordForm id={ids.admin} token="t" />, { path: '/set-password' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^new password/i), 'short');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(
      await screen.findAllByText(
        'Password must be at least 8 characters with 1 uppercase, 1 digit and 1 non alphanumeric character',
      ),
    ).not.toHaveLength(0);
  });
});
