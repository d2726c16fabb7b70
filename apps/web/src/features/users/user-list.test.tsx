import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '@pathwell/contracts/roles';
import type { SystemUser, UserFilter } from '@pathwell/contracts/user-admin';
import { storageKeys } from '../../lib/session-storage';
import { ids, makeSession } from '../../test/fake-api';
import { renderApp, renderAt } from '../../test/render';
import { UserList } from './user-list';

const roles: Role[] = ['Staff', 'Doctor', 'Admin', 'SystemManager'];
const firstNames = ['Ana', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana'];

function makeUsers(count: number): SystemUser[] {
  return Array.from({ length: count }, (_, index) => {
    const number = String(index + 1).padStart(2, '0');
    return {
      id: `00000000-0000-4000-8000-0000000000${number}`,
      firstName: firstNames[index % firstNames.length]!,
      lastName: `Person${number}`,
      email: `person${number}@pathwell.test`,
      role: roles[index % roles.length]!,
      status: index % 5 === 0 ? 'invited' : 'active',
      isActive: true,
      isParent: false,
      isChild: false,
      twoFactorEnabled: index % 3 === 0,
      credentials: null,
      npi: null,
      clinicalProviderType: null,
      hasPin: false,
      homeClinicId: ids.clinic,
      clinicIds: [ids.clinic],
      canManage: roles[index % roles.length] !== 'SystemManager',
      createdAt: '2026-01-10T12:00:00.000Z',
    };
  });
}

type Call = { method: string; path: string; body: unknown };

/** The fetchAll endpoint in memory: filters like the server, pages by the requested size, records calls. */
function fakeUserServer(users: SystemUser[], options: { fail?: boolean; session?: ReturnType<typeof makeSession> } = {}) {
  let current = [...users];
  const calls: Call[] = [];
  const json = (status: number, body?: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init?.method ?? 'GET').toUpperCase();
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path: url.pathname, body });
      if (url.pathname === '/api/session') return json(200, options.session ?? makeSession());
      if (url.pathname === '/api/users/providers' || url.pathname === '/api/parent/clinics') return json(200, []);
      if (method === 'DELETE' && url.pathname.startsWith('/api/users/')) {
        const id = url.pathname.split('/')[3];
        current = current.filter((user) => user.id !== id);
        return json(204);
      }
      if (method === 'POST' && url.pathname === '/api/users/fetchAll') {
        if (options.fail) return json(500, { error: 'Internal error', code: 'INTERNAL' });
        const filter = body as UserFilter;
        const contains = (value: string, wanted?: string | null) => !wanted || value.toLowerCase().includes(wanted.toLowerCase());
        const found = current.filter(
          (user) =>
            contains(user.firstName, filter.firstName) &&
            contains(user.lastName, filter.lastName) &&
            contains(user.email, filter.email) &&
            (!filter.role || user.role === filter.role),
        );
        const { pageSize = 15, pageNumber = 0 } = (filter.paginationFilter ?? {}) as { pageSize?: number; pageNumber?: number };
        return json(200, {
          totalRecords: found.length,
          totalExact: true,
          pageNumber,
          pageSize,
          data: found.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize),
        });
      }
      return json(404, { error: 'Not found', code: 'NOT_FOUND' });
    }),
  );
  return { calls, fetchAllBodies: () => calls.filter((call) => call.path === '/api/users/fetchAll').map((call) => call.body) };
}

const renderList = (canManageUsers = true) =>
  renderAt(<UserList canManageUsers={canManageUsers} currentUserId={ids.admin} />, { path: '/users' });

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('System Users list', () => {
  it('asks for page 0 of 15 and shows the first 15 of 32 users', async () => {
    const server = fakeUserServer(makeUsers(32));
    renderList();
    const rows = await screen.findAllByTestId('users-row');
    expect(rows).toHaveLength(15);
    expect(rows[0]).toHaveTextContent('Ana Person01');
    expect(rows[0]).toHaveTextContent('person01@pathwell.test');
    expect(rows[0]).toHaveTextContent('Invited');
    expect(screen.getByTestId('users-range')).toHaveTextContent('1–15 of 32');
    expect(server.fetchAllBodies()[0]).toEqual({ paginationFilter: { pageSize: 15, pageNumber: 0 } });
  });

  it('pages forward: page 2 asks for page number 1 and shows users 16 to 30', async () => {
    const server = fakeUserServer(makeUsers(32));
    renderList();
    await screen.findAllByTestId('users-row');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getByTestId('users-range')).toHaveTextContent('16–30 of 32'));
    expect(screen.getAllByTestId('users-row')[0]).toHaveTextContent('Person16');
    expect(server.fetchAllBodies().at(-1)).toMatchObject({ paginationFilter: { pageSize: 15, pageNumber: 1 } });
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(screen.getAllByTestId('users-row')).toHaveLength(2));
  });

  it('filters by first name, last name, email and role, back to the first page, and clears', async () => {
    const server = fakeUserServer(makeUsers(32));
    renderList();
    await screen.findAllByTestId('users-row');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getByTestId('users-range')).toHaveTextContent('16–30'));

    await user.type(screen.getByLabelText('First name'), 'ana');
    await user.type(screen.getByLabelText('Last name'), 'person');
    await user.type(screen.getByLabelText('Email Address'), 'pathwell.test');
    await choose(user, 'Role', 'Staff');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    await waitFor(() =>
      expect(server.fetchAllBodies().at(-1)).toEqual({
        paginationFilter: { pageSize: 15, pageNumber: 0 },
        firstName: 'ana',
        lastName: 'person',
        email: 'pathwell.test',
        role: 'Staff',
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('users-row')).toHaveLength(4));
    for (const row of screen.getAllByTestId('users-row')) expect(row).toHaveTextContent(/Ana.*Staff/);

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(screen.getByTestId('users-range')).toHaveTextContent('1–15 of 32'));
    expect(screen.getByLabelText('First name')).toHaveValue('');
  });

  it('runs the search with Enter from a filter field', async () => {
    const server = fakeUserServer(makeUsers(10));
    renderList();
    await screen.findAllByTestId('users-row');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email Address'), 'person03{Enter}');
    await waitFor(() => expect(server.fetchAllBodies().at(-1)).toMatchObject({ email: 'person03' }));
    await waitFor(() => expect(screen.getAllByTestId('users-row')).toHaveLength(1));
  });

  it('says so when no user matches', async () => {
    fakeUserServer(makeUsers(3));
    renderList();
    await screen.findAllByTestId('users-row');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Last name'), 'nobody{Enter}');
    expect(await screen.findByTestId('users-empty')).toHaveTextContent('No users match these filters.');
  });

  it('shows the failure and a way to try again', async () => {
    fakeUserServer(makeUsers(3), { fail: true });
    renderList();
    expect(await screen.findByTestId('users-error')).toHaveTextContent('Internal error');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('offers edit and delete only on users the admin may manage, never delete on themselves', async () => {
    const users = makeUsers(4);
    users[0] = { ...users[0]!, id: ids.admin, firstName: 'Alex', lastName: 'Carter', role: 'Admin' };
    fakeUserServer(users);
    renderList();
    const rows = await screen.findAllByTestId('users-row');
    expect(within(rows[0]!).getByRole('link', { name: 'Edit Alex Carter' })).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Delete Ben Person02' })).toBeInTheDocument();
    // The fourth user is a System Manager, ranked above an Admin.
    expect(within(rows[3]!).queryByRole('link', { name: /Edit/ })).not.toBeInTheDocument();
    expect(within(rows[3]!).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('deletes a user after confirmation and refreshes the list', async () => {
    const server = fakeUserServer(makeUsers(4));
    renderList();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Ben Person02' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('Delete Ben Person02?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByTestId('users-row')).toHaveLength(3));
    expect(
      server.calls.some((call) => call.method === 'DELETE' && call.path === '/api/users/00000000-0000-4000-8000-000000000002'),
    ).toBe(true);
  });

  it('is read-only for a Doctor: no links, no actions and no Add New user button', async () => {
    localStorage.setItem(storageKeys.token, 'token-1');
    fakeUserServer(makeUsers(5), { session: makeSession({ user: { id: ids.doctor, role: 'Doctor' } }) });
    renderApp('/users');
    const rows = await screen.findAllByTestId('users-row');
    expect(rows).toHaveLength(5);
    expect(screen.queryByRole('link', { name: /Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId('users-add')).not.toBeInTheDocument();
    expect(screen.getByText('People who sign in to this clinic. Only administrators can change them.')).toBeInTheDocument();
  });

  it('gives an Admin the Add New user button leading to the user form', async () => {
    localStorage.setItem(storageKeys.token, 'token-1');
    fakeUserServer(makeUsers(2));
    const { router } = renderApp('/users');
    const add = await screen.findByRole('link', { name: 'Add New user' });
    const user = userEvent.setup();
    await user.click(add);
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/userform'));
  });
});
