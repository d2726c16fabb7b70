import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Instance, Organisation } from '@pathwell/contracts/instances';
import { storageKeys } from '../../lib/session-storage';
import { fakeApi, ids, makeSession } from '../../test/fake-api';
import { renderApp, renderAt } from '../../test/render';
import { ClinicForm } from './clinic-form';
import { InstanceEditForm } from './instance-form';

const riverside: Instance = {
  id: ids.clinic,
  name: 'Riverside Spine & Pain',
  organisationId: '66666666-6666-4666-8666-666666666666',
  organisationName: 'Gulf Coast Pain Partners',
  isActive: true,
  timeZoneId: 'America/Chicago',
  userCount: 6,
  canManage: true,
  createdAt: '2026-01-10T12:00:00.000Z',
};
const lakeside: Instance = { ...riverside, id: ids.otherClinic, name: 'Lakeside Pain Center', userCount: 2 };
const gulf: Organisation = {
  id: riverside.organisationId!,
  name: 'Gulf Coast Pain Partners',
  instances: [
    { id: lakeside.id, name: lakeside.name, isActive: true },
    { id: riverside.id, name: riverside.name, isActive: true },
  ],
  canManage: true,
  createdAt: '2026-01-10T12:00:00.000Z',
};

const shell = [
  { path: '/api/users/providers', body: [] },
  { path: '/api/parent/clinics', body: [] },
];

function signedIn(role: 'Admin' | 'SystemManager', instances: Instance[]) {
  localStorage.setItem(storageKeys.token, 'token-1');
  return fakeApi([
    { path: '/api/session', body: makeSession({ user: { role } }) },
    ...shell,
    { path: '/api/instances', body: instances },
    { path: '/api/clinics', body: [gulf] },
  ]);
}

describe('Instance Information', () => {
  it('gives a System Manager every instance, Add New instance and a way to work in another clinic', async () => {
    signedIn('SystemManager', [lakeside, riverside]);
    renderApp('/instances');
    const rows = await screen.findAllByTestId('instances-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Lakeside Pain Center');
    expect(rows[1]).toHaveTextContent('Current');
    expect(screen.getByRole('link', { name: 'Add New instance' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Work in Lakeside Pain Center' })).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: /Work in/ })).not.toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Switch off Lakeside Pain Center' })).toBeInTheDocument();
  });

  it('shows an Admin their instance to rename, without adding, switching off or switching clinic', async () => {
    signedIn('Admin', [{ ...riverside, canManage: false }]);
    renderApp('/instances');
    const rows = await screen.findAllByTestId('instances-row');
    expect(rows).toHaveLength(1);
    expect(screen.queryByRole('link', { name: 'Add New instance' })).not.toBeInTheDocument();
    expect(within(rows[0]!).getByRole('link', { name: 'Edit Riverside Spine & Pain' })).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: /Switch off/ })).not.toBeInTheDocument();
  });

  it('shows the unauthorized page to an Admin opening the create form', async () => {
    signedIn('Admin', [riverside]);
    renderApp('/instances/instanceform');
    expect(await screen.findByTestId('page-unauthorized')).toBeInTheDocument();
  });

  it('an Admin renames their instance; the organisation and the active flag stay read-only', async () => {
    const { calls } = fakeApi([
      { method: 'PUT', path: `/api/instances/${riverside.id}`, body: { ...riverside, name: 'Riverside Spine Center' } },
      { path: '/api/clinics', body: [gulf] },
    ]);
    const { router } = renderAt(<InstanceEditForm instance={{ ...riverside, canManage: false }} />, {
      path: '/instances/instanceform',
    });
    const user = userEvent.setup();
    const name = screen.getByLabelText(/^Name/);
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter name')).toBeInTheDocument();
    await user.type(name, 'Riverside Spine Center');
    expect(screen.getByRole('switch', { name: /^Active/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/instances'));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      name: 'Riverside Spine Center',
      organisationId: riverside.organisationId,
      isActive: true,
    });
  });
});

describe('Clinic Information', () => {
  it('lists parent organisations with their instances, editable when the user may manage them', async () => {
    signedIn('Admin', [riverside]);
    renderApp('/clinics');
    const row = await screen.findByTestId('clinics-row');
    expect(row).toHaveTextContent('Gulf Coast Pain Partners');
    expect(row).toHaveTextContent('Lakeside Pain Center');
    expect(within(row).getByRole('button', { name: 'Delete Gulf Coast Pain Partners' })).toBeInTheDocument();
  });

  it('creates a parent organisation from a name and instances, and shows the server’s field errors', async () => {
    const { calls } = fakeApi([
      { path: '/api/instances', body: [lakeside, riverside] },
      {
        method: 'POST',
        path: '/api/clinics',
        status: 400,
        body: { error: 'You can only group instances you work in', code: 'VALIDATION', fields: { instanceIds: 'invalid' } },
      },
    ]);
    renderAt(<ClinicForm />, { path: '/clinics/clinicform' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Please enter name')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Name/), 'North Group');
    await user.click(screen.getByTestId('clinic-instances'));
    await user.click(await screen.findByRole('option', { name: 'Lakeside Pain Center', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'North Group', instanceIds: [lakeside.id] }),
    );
    expect(await screen.findByText('This value is not valid')).toBeInTheDocument();
  });
});
