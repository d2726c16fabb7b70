import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SystemUserDetail } from '@pathwell/contracts/user-admin';
import { fakeApi, ids } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { UserForm, type Actor } from './user-form';

const admin: Actor = { id: ids.admin, role: 'Admin' };
const manager: Actor = { id: ids.admin, role: 'SystemManager' };
const staffId = '55555555-5555-4555-8555-555555555555';

const existing: SystemUserDetail = {
  id: staffId,
  firstName: 'Sam',
  lastName: 'Lee',
  email: 'staff@pathwell.demo',
  role: 'Staff',
  status: 'active',
  isActive: true,
  isParent: false,
  isChild: false,
  twoFactorEnabled: false,
  credentials: null,
  npi: null,
  clinicalProviderType: null,
  hasPin: false,
  homeClinicId: ids.clinic,
  clinicIds: [ids.clinic],
  canManage: true,
  createdAt: '2026-01-10T12:00:00.000Z',
  profileImage: null,
};

const clinicsRoute = {
  path: '/api/parent/clinics',
  body: [
    { id: ids.clinic, name: 'Riverside Spine & Pain' },
    { id: ids.otherClinic, name: 'Lakeside Pain Center' },
  ],
};

const renderForm = (actor: Actor, user?: SystemUserDetail) =>
  renderAt(<UserForm actor={actor} user={user} />, { path: '/users/userform' });

async function roleOptions(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('combobox', { name: 'Role' }));
  const options = await screen.findAllByRole('option', { hidden: true });
  return options.map((option) => option.textContent);
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('user form', () => {
  it('shows the section 5 messages for missing names, email and role', async () => {
    const { calls } = fakeApi([clinicsRoute]);
    renderForm(admin);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findAllByText('Please enter name')).toHaveLength(2);
    expect(screen.getByText('Please enter Email Address')).toBeInTheDocument();
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/users/register')).toBe(false);
  });

  it('says when the email is not a valid format', async () => {
    fakeApi([clinicsRoute]);
    renderForm(admin);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Email Address/), 'nurse.at.clinic');
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('Email not valid format')).toBeInTheDocument();
  });

  it('offers an Admin only roles up to Admin, and a System Manager every role', async () => {
    fakeApi([clinicsRoute]);
    const first = renderForm(admin);
    const user = userEvent.setup();
    expect(await roleOptions(user)).toEqual(['Admin', 'Doctor', 'Staff']);
    first.unmount();
    renderForm(manager);
    expect(await roleOptions(user)).toEqual(['System Manager', 'Admin', 'Doctor', 'Staff']);
  });

  it('asks for doctor details when the role is Doctor and checks the NPI', async () => {
    fakeApi([clinicsRoute]);
    renderForm(admin);
    const user = userEvent.setup();
    expect(screen.queryByLabelText('NPI')).not.toBeInTheDocument();
    await choose(user, 'Role', 'Doctor');
    await user.type(await screen.findByLabelText('NPI'), '1234567890');
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('NPI must be 10 digits with a valid check digit')).toBeInTheDocument();
    const providerType = screen.getByRole('combobox', { name: 'Clinical provider type' });
    expect(providerType).toHaveAccessibleDescription('This field is required');
  });

  it('creates the user with the typed details and returns to the list', async () => {
    const { calls } = fakeApi([
      clinicsRoute,
      {
        method: 'POST',
        path: '/api/users/register',
        status: 201,
        body: { ...existing, status: 'invited', email: 'dana@pathwell.test' },
      },
    ]);
    const { router } = renderForm(admin);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^First name/), 'Dana');
    await user.type(screen.getByLabelText(/^Last name/), 'Ruiz');
    await user.type(screen.getByLabelText(/^Email Address/), 'Dana@Pathwell.test');
    await choose(user, 'Role', 'Doctor');
    await user.type(screen.getByLabelText('Credentials'), 'MD');
    await user.type(screen.getByLabelText('NPI'), '1234567893');
    await choose(user, 'Clinical provider type', 'Physician Assistant');
    await user.click(screen.getByRole('switch', { name: /Two-step verification/ }));
    await user.click(screen.getByRole('button', { name: 'Create user' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(calls.find((call) => call.path === '/api/users/register')?.body).toEqual({
      firstName: 'Dana',
      lastName: 'Ruiz',
      email: 'dana@pathwell.test',
      role: 'Doctor',
      isParent: false,
      isChild: false,
      clinicIds: [],
      credentials: 'MD',
      npi: '1234567893',
      clinicalProviderType: 'Physician Assistant',
      twoFactorEnabled: true,
      isActive: true,
      profileImage: null,
    });
  });

  it('puts the server’s “email already in use” next to the email field', async () => {
    fakeApi([
      clinicsRoute,
      {
        method: 'POST',
        path: '/api/users/register',
        status: 409,
        body: { error: 'Another account uses this email', code: 'CONFLICT', fields: { email: 'emailTaken' } },
      },
    ]);
    renderForm(admin);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^First name/), 'Dana');
    await user.type(screen.getByLabelText(/^Last name/), 'Ruiz');
    await user.type(screen.getByLabelText(/^Email Address/), 'staff@pathwell.demo');
    await choose(user, 'Role', 'Staff');
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('This email is already in use')).toBeInTheDocument();
  });

  it('offers the clinics of a parent user only when the parent switch is on', async () => {
    fakeApi([clinicsRoute]);
    renderForm(admin);
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Clinics')).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: /Parent user/ }));
    await user.click(await screen.findByTestId('user-clinics'));
    expect(await screen.findByRole('option', { name: 'Lakeside Pain Center', hidden: true })).toBeInTheDocument();
  });

  it('treats an update without isSuccess as failed (section 5) and stays on the form', async () => {
    fakeApi([clinicsRoute, { method: 'PUT', path: `/api/users/${staffId}`, body: { ...existing, isSuccess: false } }]);
    const { router } = renderForm(admin, existing);
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^First name/));
    await user.type(screen.getByLabelText(/^First name/), 'Samuel');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('user-form-error')).toHaveTextContent('The user could not be updated');
    expect(router.state.location.pathname).toBe('/users/userform');
  });

  it('saves an edit and returns to the list', async () => {
    const { calls } = fakeApi([
      clinicsRoute,
      { method: 'PUT', path: `/api/users/${staffId}`, body: { ...existing, isSuccess: true } },
    ]);
    const { router } = renderForm(admin, existing);
    const user = userEvent.setup();
    await user.click(screen.getByRole('switch', { name: /^Active/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ isActive: false, role: 'Staff' });
  });

  it('does not let users change their own role, switch themselves off or delete themselves', async () => {
    fakeApi([clinicsRoute]);
    renderForm(admin, { ...existing, id: ids.admin, role: 'Admin' });
    expect(screen.getByRole('combobox', { name: 'Role' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: /^Active/ })).toBeDisabled();
    expect(screen.queryByTestId('user-delete')).not.toBeInTheDocument();
  });

  it('resends the welcome email to an invited user', async () => {
    const { calls } = fakeApi([clinicsRoute, { method: 'POST', path: '/api/users/sendwelcomeemail', body: { message: 'sent' } }]);
    renderForm(admin, { ...existing, status: 'invited' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Resend welcome email' }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/api/users/sendwelcomeemail')?.body).toMatchObject({
        id: staffId,
        role: 'Staff',
      }),
    );
  });

  it('sets an administrator’s PIN and refuses one that is not 6 digits', async () => {
    const target = { ...existing, role: 'Admin' as const };
    const { calls } = fakeApi([
      clinicsRoute,
      { method: 'PUT', path: `/api/users/${staffId}/pin`, body: { ...target, hasPin: true } },
    ]);
    renderForm(admin, target);
    const user = userEvent.setup();
    const pin = screen.getByLabelText('New PIN');
    await user.type(pin, '12');
    await user.click(screen.getByRole('button', { name: 'Set PIN' }));
    expect(await screen.findByText('Pin must be 6 digits')).toBeInTheDocument();
    await user.clear(pin);
    await user.type(pin, '482913');
    await user.click(screen.getByRole('button', { name: 'Set PIN' }));
    await waitFor(() => expect(calls.find((call) => call.path.endsWith('/pin'))?.body).toEqual({ pin: '482913' }));
    expect(await screen.findByText('PIN set')).toBeInTheDocument();
  });

  it('has no PIN section for a Staff user', () => {
    fakeApi([clinicsRoute]);
    renderForm(admin, existing);
    expect(screen.queryByText('Admin PIN')).not.toBeInTheDocument();
  });

  it('deletes after confirmation and returns to the list', async () => {
    const { calls } = fakeApi([clinicsRoute, { method: 'DELETE', path: `/api/users/${staffId}`, status: 204 }]);
    const { router } = renderForm(admin, existing);
    const user = userEvent.setup();
    await user.click(screen.getByTestId('user-delete'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });
});
