import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HotlistCard, HotlistDashboard as Dashboard, HotlistDetail, HotlistNext } from '@pathwell/contracts/hotlists';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession, type FakeRoute } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { clinicLocalToIso, HotlistCallPage, telHref } from './hotlist-call';
import { HotlistDashboard } from './hotlist-dashboard';
import { NewHotlist } from './new-hotlist';

// jsdom has no document.fonts; the textareas' autosize listens to it.
beforeAll(() => {
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
});

const listId = '55555555-5555-4555-8555-555555555551';
const entryA = '55555555-5555-4555-8555-555555555552';
const entryB = '55555555-5555-4555-8555-555555555553';
const patientA = '55555555-5555-4555-8555-555555555554';
const patientB = '55555555-5555-4555-8555-555555555555';
const templateId = '55555555-5555-4555-8555-555555555556';
const staffId = '55555555-5555-4555-8555-555555555557';

const progress = {
  total: 3,
  called: 1,
  settled: 1,
  booked: 1,
  declined: 0,
  voicemail: 0,
  wrongNumber: 0,
  doNotCall: 0,
  callbacks: 0,
  remaining: 2,
  inCall: 0,
};

const summary = {
  id: listId,
  name: 'Lumbar call-backs',
  reason: 'Due for a follow-up after their injection',
  status: 'active' as const,
  templateId,
  templateName: 'Lumbar, not seen in 6 months',
  createdAt: '2026-03-02T15:00:00.000Z',
  createdByName: 'Alex Carter',
  finishedAt: null,
  progress,
};

const detail: HotlistDetail = {
  ...summary,
  staff: [{ userId: staffId, name: 'Sam Lee', calls: 1, reached: 1, booked: 1, lastCallAt: '2026-03-03T15:00:00.000Z' }],
  entries: {
    totalRecords: 3,
    data: [
      {
        id: entryA,
        position: 1,
        patientId: patientA,
        patientName: 'Rosa Delgado',
        matchedCodes: ['M54.16'],
        outcome: 'reachedBooked',
        outcomeAt: '2026-03-03T15:00:00.000Z',
        outcomeByName: 'Sam Lee',
        callbackAt: null,
        attempts: 1,
        inCallWith: null,
      },
      {
        id: entryB,
        position: 2,
        patientId: patientB,
        patientName: 'Tomás Ruiz',
        matchedCodes: ['M51.16'],
        outcome: null,
        outcomeAt: null,
        outcomeByName: null,
        callbackAt: null,
        attempts: 0,
        inCallWith: 'Kim Nguyen',
      },
    ],
  },
  myClaimEntryId: null,
};

const cardA: HotlistCard = {
  entryId: entryA,
  patientId: patientA,
  firstName: 'Rosa',
  lastName: 'Delgado',
  dateOfBirth: '1961-04-02',
  preferredLanguage: 'es',
  phones: [
    { number: '(512) 555-0100', phoneType: 7, isPrimary: true, contactName: null, relation: null },
    { number: '(512) 555-0199', phoneType: 3, isPrimary: false, contactName: 'Luis Delgado', relation: 'Son' },
  ],
  lastVisit: '2025-08-14',
  matchedCodes: ['M54.16', 'M51.16'],
  reason: 'Due for a follow-up after their injection',
  claimedUntil: '2026-03-04T15:15:00.000Z',
  callbackAt: '2026-03-04T14:00:00.000Z',
  previousCalls: [
    {
      id: '55555555-5555-4555-8555-555555555558',
      outcome: 'voicemail',
      note: 'Left a message with the clinic number',
      callbackAt: '2026-03-04T14:00:00.000Z',
      userName: 'Sam Lee',
      createdAt: '2026-03-03T15:00:00.000Z',
    },
  ],
};
const cardB: HotlistCard = {
  ...cardA,
  entryId: entryB,
  patientId: patientB,
  firstName: 'Tomás',
  lastName: 'Ruiz',
  preferredLanguage: 'en',
  phones: [{ number: '(512) 555-0111', phoneType: 1, isPrimary: true, contactName: null, relation: null }],
  lastVisit: null,
  callbackAt: null,
  previousCalls: [],
};

const detailRoute: FakeRoute = { path: `/api/hotlists/${listId}`, body: detail };
const nextRoute = (body: HotlistNext): FakeRoute => ({ method: 'POST', path: `/api/hotlists/${listId}/next`, body });
const outcomeRoute = (entryId: string, status = 200, body: unknown = { remaining: 1, nextCallbackAt: null }): FakeRoute => ({
  method: 'POST',
  path: `/api/hotlists/${listId}/entries/${entryId}/outcome`,
  status,
  body,
});

const renderCall = (role: 'Admin' | 'Staff' = 'Staff') =>
  renderAt(
    <SessionReactContext.Provider value={makeSession({ user: { role } })}>
      <HotlistCallPage hotlistId={listId} />
    </SessionReactContext.Provider>,
    { path: '/patienthotlist/:id', initialPath: `/patienthotlist/${listId}` },
  );

describe('the hot-list call screen', () => {
  it('claims a patient, shows how to reach them, saves the outcome and brings up the next patient', async () => {
    const next = nextRoute({ entry: cardA, remaining: 2, nextCallbackAt: null });
    const { calls } = fakeApi([detailRoute, next, outcomeRoute(entryA)]);
    const user = userEvent.setup();
    renderCall();

    await user.click(await screen.findByRole('button', { name: 'Start calling' }));
    const card = await screen.findByTestId('hotlist-card');
    expect(within(card).getByRole('heading', { name: 'Rosa Delgado' })).toHaveFocus();
    const links = within(card).getAllByTestId('hotlist-phone-link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['tel:+15125550100', 'tel:+15125550199']);
    expect(links[1]).toHaveAccessibleName('Call Emergency contact (512) 555-0199');
    expect(card).toHaveTextContent('Emergency contact (Luis Delgado, Son)');
    expect(card).toHaveTextContent('08/14/2025');
    expect(card).toHaveTextContent('Spanish');
    expect(card).toHaveTextContent('M54.16, M51.16');
    expect(card).toHaveTextContent('Due for a follow-up after their injection');
    expect(within(card).getByTestId('hotlist-callback-due')).toBeInTheDocument();
    const previous = within(card).getByTestId('hotlist-previous-calls');
    expect(previous).toHaveTextContent('Voicemail');
    expect(previous).toHaveTextContent('Left a message with the clinic number');
    expect(screen.getByTestId('hotlist-remaining')).toHaveTextContent('2 patients left to call now');

    // Keyboard: "1" chooses the first outcome while the focus is on the card, not in the note.
    await user.keyboard('1');
    expect(within(card).getByTestId('hotlist-outcome-reachedBooked')).toHaveAttribute('aria-pressed', 'true');
    fireEvent.change(within(card).getByTestId('hotlist-note'), { target: { value: 'Booked for Tuesday 9:00' } });
    next.body = { entry: cardB, remaining: 1, nextCallbackAt: null };
    await user.click(within(card).getByTestId('hotlist-save'));

    await waitFor(() => expect(screen.getByRole('heading', { name: 'Tomás Ruiz' })).toBeInTheDocument());
    const saved = calls.find((call) => call.path.endsWith('/outcome'))!;
    expect(saved.body).toEqual({ outcome: 'reachedBooked', note: 'Booked for Tuesday 9:00', callbackAt: null });
    expect(calls.filter((call) => call.path.endsWith('/next'))).toHaveLength(2);
    const fresh = screen.getByTestId('hotlist-card');
    expect(fresh).toHaveTextContent('None recorded');
    expect(fresh).toHaveTextContent('Not called before from this list.');
    // The new card starts empty.
    expect(within(fresh).getByTestId('hotlist-note')).toHaveValue('');
    expect(within(fresh).getByTestId('hotlist-outcome-reachedBooked')).toHaveAttribute('aria-pressed', 'false');
  }, 30_000);

  it('asks for an outcome before saving, and sends a voicemail call-back on the clinic clock', async () => {
    const { calls } = fakeApi([
      detailRoute,
      nextRoute({ entry: cardB, remaining: 1, nextCallbackAt: null }),
      outcomeRoute(entryB, 200, { remaining: 0, nextCallbackAt: '2030-01-15T15:30:00.000Z' }),
    ]);
    const user = userEvent.setup();
    renderCall();
    await user.click(await screen.findByRole('button', { name: 'Start calling' }));
    const card = await screen.findByTestId('hotlist-card');
    await user.click(within(card).getByTestId('hotlist-save'));
    expect(await within(card).findByRole('alert')).toHaveTextContent('Choose what came of the call.');
    expect(calls.some((call) => call.path.endsWith('/outcome'))).toBe(false);

    await user.click(within(card).getByTestId('hotlist-outcome-voicemail'));
    const callback = within(card).getByTestId('hotlist-callback');
    expect(card).toHaveTextContent('Empty: the next weekday at 9:00 AM');
    fireEvent.change(callback, { target: { value: '2030-01-15T10:30' } });
    await user.click(within(card).getByTestId('hotlist-save'));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/outcome'))).toBe(true));
    // The session clinic runs on Etc/GMT+5: 10:30 there is 15:30 UTC.
    expect(calls.find((call) => call.path.endsWith('/outcome'))!.body).toEqual({
      outcome: 'voicemail',
      note: null,
      callbackAt: '2030-01-15T15:30:00.000Z',
    });
  });

  it('says when nobody is due and when the next call-back comes', async () => {
    fakeApi([detailRoute, nextRoute({ entry: null, remaining: 0, nextCallbackAt: '2026-03-05T14:00:00.000Z' })]);
    const user = userEvent.setup();
    renderCall();
    await user.click(await screen.findByRole('button', { name: 'Start calling' }));
    const empty = await screen.findByTestId('hotlist-nobody-due');
    expect(empty).toHaveTextContent('Nobody is due to be called now.');
    expect(empty).toHaveTextContent('03/05/2026 09:00 AM');
    expect(screen.getByRole('button', { name: 'Check again' })).toBeInTheDocument();
  });

  it('drops the card when someone else took the patient (409)', async () => {
    fakeApi([
      detailRoute,
      nextRoute({ entry: cardB, remaining: 1, nextCallbackAt: null }),
      outcomeRoute(entryB, 409, { error: 'not claimed', code: 'CONFLICT', messageKey: 'hotlistNotClaimed' }),
    ]);
    const user = userEvent.setup();
    renderCall();
    await user.click(await screen.findByRole('button', { name: 'Start calling' }));
    const card = await screen.findByTestId('hotlist-card');
    await user.click(within(card).getByTestId('hotlist-outcome-wrongNumber'));
    await user.click(within(card).getByTestId('hotlist-save'));
    await waitFor(() => expect(screen.queryByTestId('hotlist-card')).not.toBeInTheDocument());
    expect(await screen.findByText(/You are not calling this patient now/)).toBeInTheDocument();
    expect(screen.getByTestId('hotlist-start')).toBeInTheDocument();
  });

  it('puts the patient back without a call', async () => {
    const { calls } = fakeApi([
      detailRoute,
      nextRoute({ entry: cardB, remaining: 1, nextCallbackAt: null }),
      { method: 'POST', path: `/api/hotlists/${listId}/entries/${entryB}/release`, status: 204 },
    ]);
    const user = userEvent.setup();
    renderCall();
    await user.click(await screen.findByRole('button', { name: 'Start calling' }));
    await user.click(await screen.findByTestId('hotlist-release'));
    await waitFor(() => expect(screen.queryByTestId('hotlist-card')).not.toBeInTheDocument());
    expect(calls.some((call) => call.path.endsWith('/release'))).toBe(true);
  });

  it('lists the patients with outcome badges and who is calling; only managers finish or delete', async () => {
    fakeApi([detailRoute]);
    renderCall('Staff');
    const rows = await screen.findAllByTestId('hotlist-entry-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Reached, booked');
    expect(rows[0]).toHaveTextContent('Sam Lee');
    expect(rows[1]).toHaveTextContent('Not called');
    expect(rows[1]).toHaveTextContent('In a call with Kim Nguyen');
    expect(within(rows[0]!).getByRole('link', { name: 'Rosa Delgado' })).toHaveAttribute(
      'href',
      `/patients/patientdashboard/${patientA}`,
    );
    expect(screen.getByTestId('hotlist-list-staff')).toHaveTextContent('Sam Lee');
    expect(screen.queryByTestId('hotlist-finish')).not.toBeInTheDocument();
    expect(screen.queryByTestId('hotlist-delete')).not.toBeInTheDocument();
  });

  it('lets a manager finish the list', async () => {
    const { calls } = fakeApi([
      detailRoute,
      { method: 'POST', path: `/api/hotlists/${listId}/finish`, body: { ...summary, status: 'finished' } },
    ]);
    const user = userEvent.setup();
    renderCall('Admin');
    await user.click(await screen.findByTestId('hotlist-finish'));
    await user.click(await screen.findByTestId('hotlist-confirm'));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/finish'))).toBe(true));
  });
});

describe('the hot-list dashboard', () => {
  const dashboard: Dashboard = {
    data: [summary],
    staff: [{ userId: staffId, name: 'Sam Lee', calls: 4, reached: 2, booked: 1, lastCallAt: '2026-03-03T15:00:00.000Z' }],
  };

  it('shows each list with its progress and calls per staff member; Staff get no "New hot list"', async () => {
    fakeApi([{ path: '/api/hotlists', body: dashboard }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession({ user: { role: 'Staff' } })}>
        <HotlistDashboard />
      </SessionReactContext.Provider>,
    );
    const row = await screen.findByTestId('hotlist-row');
    expect(within(row).getByRole('link', { name: 'Lumbar call-backs' })).toHaveAttribute('href', `/patienthotlist/${listId}`);
    expect(within(row).getByTestId('hotlist-progress-text')).toHaveTextContent('1 of 3 done · 0 call-backs waiting · 2 to call');
    expect(within(row).getByRole('group', { name: 'Progress of Lumbar call-backs' })).toBeInTheDocument();
    const staff = screen.getByTestId('hotlist-staff-row');
    expect(staff).toHaveTextContent('Sam Lee');
    expect(staff).toHaveTextContent('4');
    expect(screen.queryByTestId('hotlist-create')).not.toBeInTheDocument();
  });

  it('offers managers a new hot list and the hot-list templates', async () => {
    fakeApi([{ path: '/api/hotlists', body: { data: [], staff: [] } }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <HotlistDashboard />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('hotlist-empty')).toHaveTextContent('Make one from a hot-list template');
    expect(screen.getByTestId('hotlist-create')).toHaveAttribute('href', '/patienthotlist/newcampaign');
    expect(screen.getByRole('link', { name: 'Hot-list templates' })).toHaveAttribute('href', '/hotlisttemplatelist');
  });
});

describe('a new hot list', () => {
  it('counts the template patients and makes the list', async () => {
    const { calls } = fakeApi([
      { path: '/api/audiencetemplates', body: { data: [{ id: templateId, name: 'Lumbar, not seen in 6 months' }] } },
      { method: 'POST', path: '/api/patients/patientscontrollistfortemplate', body: { count: 3, sample: [] } },
      { method: 'POST', path: '/api/hotlists', status: 201, body: summary },
    ]);
    const user = userEvent.setup();
    const { router } = renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <NewHotlist />
      </SessionReactContext.Provider>,
      { path: '/patienthotlist/newcampaign' },
    );
    await user.click(screen.getByTestId('hotlist-submit'));
    expect(await screen.findByText('Please enter name')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST' && call.path === '/api/hotlists')).toBe(false);

    fireEvent.change(screen.getByTestId('hotlist-name'), { target: { value: 'Lumbar call-backs' } });
    const box = screen.getByRole('combobox', { name: /Hot-list template/ });
    await waitFor(() => expect(box).toBeEnabled());
    await user.click(box);
    const listbox = await waitFor(() => document.getElementById(box.getAttribute('aria-controls') ?? '')!);
    await user.click(within(listbox).getByRole('option', { name: 'Lumbar, not seen in 6 months', hidden: true }));
    expect(await screen.findByText('3 patients would be on the list now.')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/patients/patientscontrollistfortemplate')!.body).toEqual({ templateId });
    fireEvent.change(screen.getByTestId('hotlist-reason'), { target: { value: 'Due for a follow-up' } });
    await user.click(screen.getByTestId('hotlist-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/patienthotlist/${listId}`));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/hotlists')!.body).toEqual({
      name: 'Lumbar call-backs',
      templateId,
      reason: 'Due for a follow-up',
    });
  });

  it('is refused to Staff', () => {
    fakeApi([]);
    renderAt(
      <SessionReactContext.Provider value={makeSession({ user: { role: 'Staff' } })}>
        <NewHotlist />
      </SessionReactContext.Provider>,
    );
    expect(screen.getByTestId('hotlist-create-refused')).toHaveTextContent('Only System Managers and Admins make hot lists.');
  });
});

describe('call helpers', () => {
  it('dials US numbers with +1 and reads the call-back on the clinic clock', () => {
    expect(telHref('(512) 555-0100')).toBe('tel:+15125550100');
    expect(telHref('+44 20 7946 0958')).toBe('tel:+442079460958');
    expect(clinicLocalToIso('2030-07-01T09:00', 'America/Chicago')).toBe('2030-07-01T14:00:00.000Z');
    expect(clinicLocalToIso('', 'America/Chicago')).toBeNull();
  });
});
