import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, LoginDetail } from '@pathwell/contracts/activity';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, ids, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { ActivityLogView, LoginDetailsView } from './activity-log-view';

const actors = [
  { id: ids.admin, name: 'Alex Carter' },
  { id: ids.doctor, name: 'Daniela Ortiz' },
];

function entry(overrides: Partial<ActivityEntry>): ActivityEntry {
  return {
    id: crypto.randomUUID(),
    createdAt: '2025-03-10T14:30:00.000Z',
    userId: ids.admin,
    userName: 'Alex Carter',
    email: 'admin@pathwell.demo',
    area: 'Admin Configuration',
    action: 'Updated',
    targetType: 'room',
    targetId: 'Room 2',
    description: 'Renamed the room',
    ip: '10.0.0.7',
    ...overrides,
  };
}

const rows = [
  entry({ createdAt: '2025-03-10T14:30:00.000Z', description: 'Renamed the room' }),
  entry({
    createdAt: '2025-03-09T20:00:00.000Z',
    area: 'System Users',
    action: 'Created',
    description: 'Added a user',
    userName: null,
    email: null,
    userId: null,
  }),
  entry({ createdAt: '2025-03-01T12:00:00.000Z', area: 'Login Activity', action: 'Failed', description: 'Sign-in failed' }),
];

function serve(extra: FakeRoute[] = [], page = { totalRecords: rows.length, data: rows }) {
  return fakeApi([
    ...extra,
    { method: 'POST', path: '/api/activitylogs/filtered', body: page },
    { method: 'POST', path: '/api/logindetails/filtered', body: page },
    { method: 'GET', path: '/api/activitylogs/actors', body: actors },
  ]);
}

const renderView = (view: 'activity' | 'login' = 'activity') =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      {view === 'activity' ? <ActivityLogView /> : <LoginDetailsView />}
    </SessionReactContext.Provider>,
    { path: '/activitylogs' },
  );

const bodiesTo = (calls: { path: string; body: unknown }[], path: string) =>
  calls.filter((call) => call.path === path).map((call) => call.body);

/** jsdom has no object URLs; the download needs one. */
function stubObjectUrls() {
  const createObjectURL = vi.fn((_blob: Blob) => 'blob:activity');
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = vi.fn();
  return createObjectURL;
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  // Mantine keeps the dropdown hidden while its opening transition runs; the option is there to pick.
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

beforeEach(() => {
  // The clinic in makeSession() keeps UTC-5: 15:00 UTC is 10:00 AM there on 03/10/2025.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-10T15:00:00Z'));
});
afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('activity log page', () => {
  it('asks for the first page of 15 and shows times on the clinic’s clock', async () => {
    const { calls } = serve();
    renderView();
    const table = await screen.findByRole('table', { name: 'Activity entries' });
    expect(bodiesTo(calls, '/api/activitylogs/filtered')[0]).toEqual({ paginationFilter: { pageSize: 15, pageNumber: 0 } });
    const lines = within(table).getAllByTestId('activity-row');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent('Today at 09:30 AM');
    expect(lines[0]).toHaveTextContent('Alex Carter');
    expect(within(lines[0]!).getByTitle('Room 2')).toBeInTheDocument();
    expect(lines[1]).toHaveTextContent('Yesterday at 03:00 PM');
    expect(lines[1]).toHaveTextContent('Unknown user');
    expect(lines[2]).toHaveTextContent('03/01/2025 07:00 AM');
    expect(lines[2]).toHaveTextContent('Login Activity');
    expect(screen.getByTestId('activity-total')).toHaveTextContent('3 entries');
  });

  it('sends every filter the person set, from the first page', async () => {
    const { calls } = serve([], { totalRecords: 40, data: rows });
    renderView();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Activity entries' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(bodiesTo(calls, '/api/activitylogs/filtered').at(-1)).toMatchObject({ paginationFilter: { pageNumber: 1 } }),
    );

    await user.type(screen.getByRole('textbox', { name: 'From' }), '03/01/2025');
    await user.type(screen.getByRole('textbox', { name: 'To' }), '03/09/2025');
    await choose(user, 'User', 'Daniela Ortiz');
    await choose(user, 'Area', 'System Users');
    await choose(user, 'Action', 'Updated');
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'room');
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    await waitFor(() =>
      expect(bodiesTo(calls, '/api/activitylogs/filtered').at(-1)).toEqual({
        from: '03/01/2025',
        to: '03/09/2025',
        userId: ids.doctor,
        area: 'System Users',
        action: 'Updated',
        search: 'room',
        paginationFilter: { pageSize: 15, pageNumber: 0 },
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() =>
      expect(bodiesTo(calls, '/api/activitylogs/filtered').at(-1)).toEqual({ paginationFilter: { pageSize: 15, pageNumber: 0 } }),
    );
    expect(screen.getByRole('textbox', { name: 'From' })).toHaveValue('');
  });

  it('checks the dates before asking the server', async () => {
    const { calls } = serve();
    renderView();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Activity entries' });
    const before = bodiesTo(calls, '/api/activitylogs/filtered').length;

    await user.type(screen.getByRole('textbox', { name: 'From' }), '2025-03-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Date must be MM/DD/YYYY')).toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'From' }));
    await user.type(screen.getByRole('textbox', { name: 'From' }), '03/10/2025');
    await user.type(screen.getByRole('textbox', { name: 'To' }), '03/01/2025');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The end date must be on or after the start date')).toBeInTheDocument();
    expect(bodiesTo(calls, '/api/activitylogs/filtered')).toHaveLength(before);
  });

  it('Export CSV downloads the file for the filters in use', async () => {
    localStorage.setItem('token', 'session-token');
    const { calls, fetchMock } = serve();
    const jsonFetch = fetchMock.getMockImplementation()!;
    const exports: { body: unknown; headers: Headers }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/activitylogs/export') {
          exports.push({ body: JSON.parse(String(init?.body)), headers: new Headers(init?.headers) });
          return new Response('\uFEFFTime,User\r\n', {
            status: 200,
            headers: {
              'Content-Type': 'text/csv; charset=utf-8',
              'Content-Disposition': 'attachment; filename="activity-log-2025-03-10.csv"',
            },
          });
        }
        return jsonFetch(input, init);
      }),
    );
    const createObjectURL = stubObjectUrls();
    const downloads: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.href}`);
    });

    renderView();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Activity entries' });
    await choose(user, 'Action', 'Failed');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(bodiesTo(calls, '/api/activitylogs/filtered').at(-1)).toMatchObject({ action: 'Failed' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(downloads).toEqual(['activity-log-2025-03-10.csv blob:activity']));
    expect(exports).toHaveLength(1);
    expect(exports[0]!.body).toEqual({ action: 'Failed', language: 'en' });
    expect(exports[0]!.headers.get('Authorization')).toBe('Bearer session-token');
    expect(createObjectURL.mock.calls[0]![0].type).toMatch(/^text\/csv/);
    expect(await screen.findByText('The CSV file has been downloaded.')).toBeInTheDocument();
    click.mockRestore();
  });

  it('shows the server’s message when the export is refused', async () => {
    serve([
      {
        method: 'POST',
        path: '/api/activitylogs/export',
        status: 400,
        body: { error: 'This export would hold 60,000 entries; the limit is 50,000.', code: 'VALIDATION' },
      },
    ]);
    renderView();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Activity entries' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('This export would hold 60,000 entries; the limit is 50,000.')).toBeInTheDocument();
  });

  it('does not ask for an export the server would refuse', async () => {
    const { calls } = serve([], { totalRecords: 60_000, data: rows });
    renderView();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Activity entries' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(
      await screen.findByText(
        'This export would hold 60,000 entries; the limit is 50,000. Narrow the dates or filters and export again.',
      ),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/activitylogs/export')).toBe(false);
  });

  it('says when nothing matches, and disables the export', async () => {
    serve([], { totalRecords: 0, data: [] });
    renderView();
    expect(await screen.findByTestId('activity-empty')).toHaveTextContent('No activity matches these filters.');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('shows the error and retries on request', async () => {
    const { calls } = serve([
      { method: 'POST', path: '/api/activitylogs/filtered', status: 500, body: { error: 'Internal error', code: 'INTERNAL' } },
    ]);
    renderView();
    expect(await screen.findByTestId('activity-error', {}, { timeout: 5000 })).toHaveTextContent('Internal error');
    const before = bodiesTo(calls, '/api/activitylogs/filtered').length;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodiesTo(calls, '/api/activitylogs/filtered').length).toBeGreaterThan(before));
  });

  it('speaks Spanish', async () => {
    serve();
    renderView();
    await i18n.changeLanguage('es');
    const table = await screen.findByRole('table', { name: 'Entradas de actividad' });
    const lines = within(table).getAllByTestId('activity-row');
    expect(lines[0]).toHaveTextContent('Hoy a las 09:30 AM');
    expect(lines[0]).toHaveTextContent('Configuración de administración');
    expect(lines[0]).toHaveTextContent('Actualizado');
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeInTheDocument();
  });
});

describe('login details page', () => {
  const logins: LoginDetail[] = [
    {
      id: crypto.randomUUID(),
      createdAt: '2025-03-10T14:00:00.000Z',
      userId: ids.doctor,
      userName: 'Daniela Ortiz',
      email: 'doctor@pathwell.demo',
      action: 'Failed',
      event: 'Sign-in failed',
      result: 'Failed',
      ip: '10.7.7.8',
      userAgent: null,
    },
    {
      id: crypto.randomUUID(),
      createdAt: '2025-03-10T13:00:00.000Z',
      userId: ids.doctor,
      userName: 'Daniela Ortiz',
      email: 'doctor@pathwell.demo',
      action: 'Created',
      event: 'Signed in',
      result: 'Succeeded',
      ip: '10.7.7.7',
      userAgent: 'Mozilla/5.0 Firefox/140.0',
    },
  ];

  it('lists sign-in steps with result and browser, has no area filter, and asks for sign-in users only', async () => {
    const { fetchMock } = serve([
      { method: 'POST', path: '/api/logindetails/filtered', body: { totalRecords: 2, data: logins } },
    ]);
    renderView('login');
    const table = await screen.findByRole('table', { name: 'Sign-in activity' });
    const lines = within(table).getAllByTestId('activity-row');
    expect(lines[0]).toHaveTextContent('Sign-in failed');
    expect(lines[0]).toHaveTextContent('Failed');
    expect(lines[1]).toHaveTextContent('Succeeded');
    expect(lines[1]).toHaveTextContent('Mozilla/5.0 Firefox/140.0');
    expect(screen.queryByRole('combobox', { name: 'Area' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Action' })).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([input]) => String(input))).toContain('/api/activitylogs/actors?area=Login+Activity'),
    );
  });

  it('filters and exports through the login-details routes', async () => {
    const { calls, fetchMock } = serve([
      { method: 'POST', path: '/api/logindetails/filtered', body: { totalRecords: 2, data: logins } },
    ]);
    const jsonFetch = fetchMock.getMockImplementation()!;
    const exported: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/logindetails/export') {
          exported.push(JSON.parse(String(init?.body)));
          return new Response('\uFEFF', { status: 200, headers: { 'Content-Type': 'text/csv' } });
        }
        return jsonFetch(input, init);
      }),
    );
    stubObjectUrls();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);

    renderView('login');
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Sign-in activity' });
    await choose(user, 'User', 'Daniela Ortiz');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(bodiesTo(calls, '/api/logindetails/filtered').at(-1)).toEqual({
        userId: ids.doctor,
        paginationFilter: { pageSize: 15, pageNumber: 0 },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(exported).toEqual([{ userId: ids.doctor, language: 'en' }]));
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
  });
});
