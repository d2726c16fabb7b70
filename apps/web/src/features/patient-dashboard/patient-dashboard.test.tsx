import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClinicDashboard, DashboardAppointment, PatientDashboard, PatientNote } from '@pathwell/contracts/patient-dashboard';
import type { PainSeries, PainTimeline } from '@pathwell/contracts/pain-journal';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { Component as ClinicDashboardPage } from '../../routes/patients/dashboard';
import { Component as PatientDashboardPage } from '../../routes/patients/patient-dashboard';
import { fakeApi, ids, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';

const patientId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const note = (id: string, body: string, canEdit: boolean): PatientNote => ({
  id,
  body,
  author: { id: ids.admin, name: 'Alex Carter' },
  createdAt: '2025-03-09T15:00:00.000Z',
  updatedAt: '2025-03-09T15:00:00.000Z',
  canEdit,
});

const dashboard: PatientDashboard = {
  demographics: {
    id: patientId,
    firstName: 'María',
    middleName: null,
    lastName: 'Núñez',
    dateOfBirth: '1975-06-15',
    age: 49,
    genderName: 'Female',
    email: 'maria@example.com',
    streetAddress1: '12 Oak St',
    streetAddress2: null,
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    enableEmail: true,
    enableText: false,
    preferredLanguage: 'es',
    doctor: { id: ids.doctor, name: 'Dana Ortiz' },
    status: 'active',
    archived: false,
    archiveReason: null,
    accountClosed: false,
    phones: [
      { id: crypto.randomUUID(), phoneType: 7, number: '(217) 555-0199', contactName: null, relation: null, isPrimary: true },
      { id: crypto.randomUUID(), phoneType: 1, number: '(217) 555-0101', contactName: null, relation: null, isPrimary: false },
    ],
    // Physician referral (1); Diabetes 1 and Migraine 18; psychiatric None 11; no surgical history on file.
    referralSource: 1,
    referringProviderName: 'Helen Park, MD',
    diseaseStates: [1, 18],
    psychiatricHistory: [11],
    surgicalHistory: [],
  },
  appointments: [
    {
      id: crypto.randomUUID(),
      startsAt: '2025-03-20T15:00:00.000Z',
      durationMinutes: 30,
      status: 2,
      typeName: 'Follow-up',
      roomName: 'Room 3',
      doctor: { id: ids.doctor, name: 'Dana Ortiz' },
      painScore: null,
      reason: 'follow_up',
    },
    {
      id: crypto.randomUUID(),
      startsAt: '2025-02-10T15:00:00.000Z',
      durationMinutes: 30,
      status: 3,
      typeName: 'Procedure',
      roomName: null,
      doctor: null,
      painScore: 3,
      reason: null,
    },
  ],
  appointmentsTotal: 2,
  painTrend: [
    { appointmentId: crypto.randomUUID(), startsAt: '2025-01-10T15:00:00.000Z', painScore: 8 },
    { appointmentId: crypto.randomUUID(), startsAt: '2025-02-10T15:00:00.000Z', painScore: 3 },
  ],
  notes: [
    note('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Prefers mornings', true),
    note('cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'Insurance on file', false),
  ],
};

const renderPatient = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <PatientDashboardPage />
    </SessionReactContext.Provider>,
    { path: '/patients/patientdashboard/:id', initialPath: `/patients/patientdashboard/${patientId}` },
  );

const appointment = (overrides: Partial<DashboardAppointment>): DashboardAppointment => ({
  id: crypto.randomUUID(),
  startsAt: '2025-03-10T15:00:00.000Z',
  durationMinutes: 30,
  status: 2,
  typeName: 'Follow-up',
  roomName: 'Room 1',
  doctor: { id: ids.doctor, name: 'Dana Ortiz' },
  painScore: null,
  reason: null,
  patient: { id: patientId, name: 'María Núñez', dateOfBirth: '1975-06-15' },
  checkedInAt: null,
  completedAt: null,
  ...overrides,
});

const clinic: ClinicDashboard = {
  counts: { activePatients: 1500, appointmentsToday: 2, checkedInNow: 1, noShowsThisWeek: 0, upcoming: 1 },
  today: [
    appointment({}),
    appointment({
      status: 1,
      checkedInAt: '2025-03-10T14:50:00.000Z',
      patient: { id: ids.admin, name: 'Ben Okafor', dateOfBirth: '1990-02-03' },
    }),
  ],
  upcoming: [appointment({ startsAt: '2025-03-12T15:00:00.000Z' })],
  checkingIn: [
    appointment({
      status: 1,
      checkedInAt: '2025-03-10T14:50:00.000Z',
      patient: { id: ids.admin, name: 'Ben Okafor', dateOfBirth: '1990-02-03' },
    }),
  ],
  recentCompletions: [],
};

const renderClinic = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <ClinicDashboardPage />
    </SessionReactContext.Provider>,
    { path: '/patients/dashboard' },
  );

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-10T15:00:00Z'));
});
afterEach(async () => {
  vi.useRealTimers();
  localStorage.clear();
  await i18n.changeLanguage('en');
});

const painTimeline: PainTimeline = {
  visits: [
    { appointmentId: crypto.randomUUID(), startsAt: '2025-01-10T15:00:00.000Z', score: 8 },
    { appointmentId: crypto.randomUUID(), startsAt: '2025-02-10T15:00:00.000Z', score: 3 },
  ],
  journal: [{ id: crypto.randomUUID(), recordedAt: '2025-01-27T18:00:00.000Z', score: 5, note: 'Better since the shot' }],
  procedures: [
    { id: crypto.randomUUID(), performedOn: '2025-01-20', kind: 'injection', itemName: 'Lumbar epidural steroid injection' },
  ],
};
const painSeries: PainSeries = {
  interval: 'week',
  timeZone: 'Etc/GMT+5',
  series: [
    { periodStart: '2025-01-06', average: 8, min: 8, max: 8, count: 1 },
    { periodStart: '2025-01-27', average: 5, min: 5, max: 5, count: 1 },
    { periodStart: '2025-02-10', average: 3, min: 3, max: 3, count: 1 },
  ],
};

describe('patient dashboard page', () => {
  it('shows the demographics card with phone types and opt-ins, the timeline and the questionnaire empty state', async () => {
    fakeApi([
      { path: `/api/patients/${patientId}/dashboard`, body: dashboard },
      { path: `/api/patients/${patientId}/formresponses`, body: { data: [], series: [] } },
      { path: '/api/patient-links', body: [] },
    ]);
    renderPatient();
    expect(await screen.findByRole('heading', { name: 'María Núñez' })).toBeInTheDocument();
    const card = screen.getByTestId('demographics-card');
    expect(card).toHaveTextContent('06/15/1975');
    expect(card).toHaveTextContent('49 years');
    expect(card).toHaveTextContent('Female');
    expect(card).toHaveTextContent('Spanish');
    expect(card).toHaveTextContent('Dana Ortiz');
    const phones = within(screen.getByTestId('demographics-phones')).getAllByRole('listitem');
    expect(phones[0]).toHaveTextContent('Mobile(217) 555-0199Primary');
    expect(phones[1]).toHaveTextContent('Home(217) 555-0101');
    expect(screen.getByTestId('demographics-opt-ins')).toHaveTextContent('Email: Yes');
    expect(screen.getByTestId('demographics-opt-ins')).toHaveTextContent('Text messages: No');
    expect(screen.getByTestId('demographics-referral')).toHaveTextContent('Physician referral · Helen Park, MD');
    expect(screen.getByTestId('demographics-diseaseStates')).toHaveTextContent('Diabetes, Migraine');
    expect(screen.getByTestId('demographics-psychiatricHistory')).toHaveTextContent('None');
    expect(screen.getByTestId('demographics-surgicalHistory')).toHaveTextContent('Not given');
    const items = screen.getAllByTestId('timeline-item');
    expect(items[0]).toHaveTextContent('03/20/2025 10:00 AM');
    expect(items[0]).toHaveTextContent('Upcoming');
    expect(items[0]).toHaveTextContent('Room: Room 3');
    expect(items[1]).toHaveTextContent('Completed');
    expect(items[1]).toHaveTextContent('Pain 3/10');
    await waitFor(() => expect(screen.getByTestId('questionnaire-panel')).toHaveTextContent('No questionnaire results yet'));
  });

  it('draws visits, journal entries and procedures on one time axis, with a table of the same points for screen readers', async () => {
    const { calls } = fakeApi([
      { path: `/api/patients/${patientId}/dashboard`, body: dashboard },
      { path: `/api/patients/${patientId}/paintimeline`, body: painTimeline },
      { path: '/api/patients/painjournal', body: painSeries },
    ]);
    renderPatient();
    const chart = await screen.findByRole(
      'img',
      { name: 'Pain from 01/10/2025 to 02/10/2025: 2 visit scores, 1 journal entries and 1 procedures' },
      { timeout: 5000 },
    );
    expect(chart).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Pain scores and procedures by date' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '01/10/2025Visit8',
      '01/20/2025ProcedureLumbar epidural steroid injection',
      '01/27/2025Journal5Better since the shot',
      '02/10/2025Visit3',
    ]);
    expect(calls.find((call) => call.path === '/api/patients/painjournal')?.query.get('interval')).toBe('week');
    await userEvent.setup().click(screen.getByRole('radio', { name: 'month' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/api/patients/painjournal').map((call) => call.query.get('interval'))).toEqual(
        ['week', 'month'],
      ),
    );
  });

  it('sends the pain journal link by the chosen channels and shows the URL for the tablet', async () => {
    const user = userEvent.setup();
    const url = `/periodicvas/${patientId}/Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE`;
    const { calls } = fakeApi([
      { path: `/api/patients/${patientId}/dashboard`, body: dashboard },
      { path: `/api/patients/${patientId}/paintimeline`, body: painTimeline },
      { path: '/api/patients/painjournal', body: painSeries },
      {
        method: 'POST',
        path: `/api/patients/${patientId}/painjournal/send`,
        status: 201,
        body: {
          linkId: crypto.randomUUID(),
          url,
          expiresAt: '2025-03-12T15:00:00.000Z',
          sent: [
            { channel: 'email', status: 'queued' },
            { channel: 'sms', status: 'notSent' },
          ],
        },
      },
    ]);
    renderPatient();
    await user.click(await screen.findByRole('button', { name: 'Send pain journal link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send the pain journal link' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Text message' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByTestId('pain-journal-link-created')).toHaveTextContent('Sent by Email.');
    expect(within(dialog).getByTestId('pain-journal-not-sent')).toHaveTextContent('Not sent by Text message');
    expect(within(dialog).getByTestId('pain-journal-url')).toHaveValue(`${window.location.origin}${url}`);
    expect(calls.find((call) => call.path.endsWith('/painjournal/send'))?.body).toEqual({ send: ['email', 'sms'] });
  });

  it('adds a note at the top of the list; only notes the user may change offer edit and delete', async () => {
    const user = userEvent.setup();
    const created = note('dddddddd-dddd-4ddd-8ddd-dddddddddddd', 'Call back Tuesday', true);
    const { calls } = fakeApi([
      { path: `/api/patients/${patientId}/dashboard`, body: dashboard },
      { method: 'POST', path: `/api/patients/${patientId}/notes`, status: 201, body: created },
    ]);
    renderPatient();
    const notes = await screen.findAllByTestId('patient-note');
    expect(within(notes[0]!).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(notes[1]!).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'New note' }), 'Call back Tuesday');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(screen.getAllByTestId('patient-note')[0]).toHaveTextContent('Call back Tuesday'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ body: 'Call back Tuesday' });
    // The dashboard is not loaded again: that would log another view.
    expect(calls.filter((call) => call.path.endsWith('/dashboard'))).toHaveLength(1);
  });

  it('edits and deletes a note', async () => {
    const user = userEvent.setup();
    const noteId = dashboard.notes[0]!.id;
    fakeApi([
      { path: `/api/patients/${patientId}/dashboard`, body: dashboard },
      {
        method: 'PUT',
        path: `/api/patients/${patientId}/notes/${noteId}`,
        body: { ...dashboard.notes[0], body: 'Prefers afternoons' },
      },
      { method: 'DELETE', path: `/api/patients/${patientId}/notes/${noteId}`, status: 204 },
    ]);
    renderPatient();
    const [first] = await screen.findAllByTestId('patient-note');
    await user.click(within(first!).getByRole('button', { name: 'Edit' }));
    const field = screen.getByRole('textbox', { name: 'Edit note' });
    await user.clear(field);
    await user.type(field, 'Prefers afternoons');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByTestId('patient-note')[0]).toHaveTextContent('Prefers afternoons'));

    await user.click(within(screen.getAllByTestId('patient-note')[0]!).getByRole('button', { name: 'Delete' }));
    await user.click(await screen.findByTestId('note-delete-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('patient-note')).toHaveLength(1));
    expect(screen.getByTestId('patient-note')).toHaveTextContent('Insurance on file');
  });

  it('says the patient cannot be seen on 404, and "Something went wrong, Please try again!" on other failures', async () => {
    fakeApi([
      { path: `/api/patients/${patientId}/dashboard`, status: 404, body: { error: 'Patient not found', code: 'NOT_FOUND' } },
    ]);
    const first = renderPatient();
    expect(await screen.findByTestId('patient-dashboard-error')).toHaveTextContent(
      'This patient does not exist or is not one you can see.',
    );
    first.unmount();
    fakeApi([{ path: `/api/patients/${patientId}/dashboard`, status: 500, body: { error: 'Internal error', code: 'INTERNAL' } }]);
    renderPatient();
    expect(await screen.findByTestId('patient-dashboard-error')).toHaveTextContent('Something went wrong, Please try again!');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('speaks Spanish', async () => {
    fakeApi([
      { path: `/api/patients/${patientId}/dashboard`, body: dashboard },
      { path: `/api/patients/${patientId}/paintimeline`, body: painTimeline },
      { path: '/api/patients/painjournal', body: painSeries },
      { path: `/api/patients/${patientId}/formresponses`, body: { data: [], series: [] } },
      { path: '/api/patient-links', body: [] },
    ]);
    renderPatient();
    await screen.findByTestId('demographics-card');
    await i18n.changeLanguage('es');
    expect(await screen.findByText('Aún no hay resultados de cuestionarios')).toBeInTheDocument();
    expect(screen.getByTestId('demographics-card')).toHaveTextContent('Móvil');
    expect(screen.getByTestId('demographics-referral')).toHaveTextContent('Derivación médica · Helen Park, MD');
    expect(await screen.findByRole('table', { name: 'Puntuaciones de dolor y procedimientos por fecha' })).toBeInTheDocument();
  });
});

describe('patients dashboard page', () => {
  it('shows the counts and the lists, each patient linking to their dashboard, for the selected doctor', async () => {
    localStorage.setItem('doctorId', ids.doctor);
    const { calls } = fakeApi([{ path: '/api/patients/dashboard', body: clinic }]);
    renderClinic();
    expect(await screen.findByTestId('count-activePatients')).toHaveTextContent('Active patients1,500');
    expect(screen.getByTestId('count-appointmentsToday')).toHaveTextContent('2');
    const today = within(screen.getByTestId('dashboard-today')).getAllByTestId('dashboard-appointment');
    expect(today).toHaveLength(2);
    expect(today[0]).toHaveTextContent('10:00 AM');
    expect(within(today[0]!).getByRole('link', { name: 'María Núñez' })).toHaveAttribute(
      'href',
      `/patients/patientdashboard/${patientId}`,
    );
    expect(screen.getByTestId('dashboard-checking-in')).toHaveTextContent('Ben Okafor');
    expect(screen.getByTestId('dashboard-upcoming')).toHaveTextContent('1 in total');
    expect(screen.getByTestId('dashboard-recent')).toHaveTextContent('No completed visits yet');
    expect(calls[0]?.path).toBe('/api/patients/dashboard');
    expect(fetchedUrl()).toContain(`doctorId=${ids.doctor}`);
  });

  it('says "Something went wrong, Please try again!" when the dashboard does not load, in both languages', async () => {
    fakeApi([{ path: '/api/patients/dashboard', status: 500, body: { error: 'Internal error', code: 'INTERNAL' } }]);
    renderClinic();
    expect(await screen.findByTestId('patients-dashboard-error')).toHaveTextContent('Something went wrong, Please try again!');
    await i18n.changeLanguage('es');
    expect(await screen.findByTestId('patients-dashboard-error')).toHaveTextContent('Algo salió mal. Inténtelo de nuevo.');
  });
});

function fetchedUrl(): string {
  const mock = globalThis.fetch as unknown as { mock: { calls: [RequestInfo | URL][] } };
  return String(mock.mock.calls[0]?.[0]);
}
