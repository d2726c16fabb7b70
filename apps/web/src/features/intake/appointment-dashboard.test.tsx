import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppointmentDashboard } from '@pathwell/contracts/intake';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, ids, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { AppointmentDashboardView, shiftMdy } from './appointment-dashboard';

const PATH = '/api/patients/appointmentdashboardinfo';
const roomId = '66666666-6666-4666-8666-666666666666';
type Row = AppointmentDashboard['rows'][number];

const row = (overrides: Partial<Row>): Row => ({
  appointmentId: '88888888-8888-4888-8888-888888888881',
  patientId: '77777777-7777-4777-8777-777777777771',
  patientName: 'Lucía Núñez',
  startsAt: '2026-11-20T14:30:00.000Z',
  timeText: '9:30 AM',
  doctorName: 'Daniela Ortiz',
  roomName: 'Room 1',
  status: 1,
  checkedIn: true,
  criticalFindings: [],
  intake: {
    linkStatus: 'active',
    steps: [
      { step: 1, done: true },
      { step: 3, done: true },
      { step: 4, done: true },
      { step: 5, done: false },
      { step: 7, done: false },
    ],
  },
  ...overrides,
});

const day: AppointmentDashboard = {
  date: '11/20/2026',
  selfCheckIn: true,
  rows: [
    row({}),
    row({
      appointmentId: '88888888-8888-4888-8888-888888888882',
      patientId: '77777777-7777-4777-8777-777777777772',
      patientName: 'John Miller',
      timeText: '10:00 AM',
      status: 2,
      checkedIn: false,
      roomName: null,
      intake: null,
    }),
    row({
      appointmentId: '88888888-8888-4888-8888-888888888883',
      patientId: '77777777-7777-4777-8777-777777777773',
      patientName: 'Ana Ruiz',
      timeText: '11:15 AM',
      status: 2,
      checkedIn: false,
      intake: {
        linkStatus: 'completed',
        steps: [
          { step: 3, done: true },
          { step: 6, done: true },
        ],
      },
    }),
  ],
};

function renderDashboard(answer: FakeRoute = { method: 'POST', path: PATH, body: day }) {
  const api = fakeApi([
    answer,
    { path: '/api/users/providers', body: [{ id: ids.doctor, firstName: 'Daniela', lastName: 'Ortiz' }] },
    { path: '/api/rooms', body: { totalRecords: 1, data: [{ id: roomId, name: 'Room 1' }] } },
  ]);
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <AppointmentDashboardView />
    </SessionReactContext.Provider>,
    { path: '/patients/appointmentdashboard' },
  );
  return api;
}

const dashboardBodies = (calls: ReturnType<typeof fakeApi>['calls']) =>
  calls.filter((call) => call.path === PATH).map((call) => call.body as { date?: string; doctorId?: string; roomId?: string });

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  // Mantine keeps the dropdown hidden while its opening transition runs; the option is there to pick.
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

beforeEach(() => {
  // UTC-5 clinic: 15:00 UTC is 10:00 AM on 11/20/2026.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-20T15:00:00Z'));
});
afterEach(async () => {
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

describe('appointment dashboard', () => {
  it('offers a self check-in QR code for each visit not yet checked in, only when the clinic offers it', async () => {
    renderDashboard();
    await screen.findAllByTestId('appt-dashboard-row');
    const buttons = screen.getAllByTestId('self-checkin-qr-open');
    // Lucía is checked in; John and Ana are still to come.
    expect(buttons).toHaveLength(2);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show the check-in QR code for John Miller' }));
    const dialog = await screen.findByRole('dialog', { name: 'Self check-in QR code' });
    expect(within(dialog).getByTestId('self-checkin-qr-url')).toHaveTextContent(
      `${window.location.origin}/patients/77777777-7777-4777-8777-777777777772/appointments/88888888-8888-4888-8888-888888888882/patient-checkin`,
    );
    const image = await within(dialog).findByRole('img', { name: 'QR code to check in John Miller' });
    expect(image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  });

  it('shows no QR column when the clinic does not offer self check-in', async () => {
    renderDashboard({ method: 'POST', path: PATH, body: { ...day, selfCheckIn: false } });
    await screen.findAllByTestId('appt-dashboard-row');
    expect(screen.queryByTestId('self-checkin-qr-open')).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Self check-in' })).not.toBeInTheDocument();
  });

  it("asks for today's clinic day and shows each intake step as a labelled icon", async () => {
    const { calls } = renderDashboard();
    const rows = await screen.findAllByTestId('appt-dashboard-row');
    expect(rows).toHaveLength(3);
    expect(dashboardBodies(calls)[0]).toEqual({ date: '11/20/2026' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Appointment dashboard');
    expect(screen.getByTestId('appt-dashboard-summary')).toHaveTextContent(
      '11/20/2026: 3 appointments · 1 checked in · 1 intake complete',
    );

    const first = within(rows[0]!);
    expect(rows[0]).toHaveTextContent('9:30 AM');
    expect(first.getByRole('link', { name: 'Lucía Núñez' })).toHaveAttribute(
      'href',
      '/patients/patientdashboard/77777777-7777-4777-8777-777777777771',
    );
    expect(rows[0]).toHaveTextContent('Daniela Ortiz');
    expect(rows[0]).toHaveTextContent('Room 1');
    expect(first.getByTestId('appointment-status')).toHaveTextContent('Checking in');
    expect(first.getByTestId('checked-in')).toHaveTextContent('Checked in');
    // One icon per planned step, in step order, each named with its state.
    expect(first.getAllByTestId('intake-step').map((icon) => icon.getAttribute('aria-label'))).toEqual([
      'New patient paperwork: done',
      'Check-in questions: done',
      'Pain scores: done',
      'Body map: to do',
      'Payment: to do',
    ]);
    expect(first.getByRole('img', { name: 'Pain scores: done' })).toHaveAttribute('data-done', 'true');
    expect(first.getByRole('img', { name: 'Payment: to do' })).toHaveAttribute('data-done', 'false');
    expect(first.getByRole('list', { name: 'Intake steps for Lucía Núñez: 3 of 5 done' })).toBeInTheDocument();
    expect(first.queryByTestId('intake-link-status')).not.toBeInTheDocument();

    const second = within(rows[1]!);
    expect(second.getByTestId('checked-in')).toHaveTextContent('Not yet');
    expect(second.getByTestId('intake-none')).toHaveTextContent('No intake link');
    expect(second.queryAllByTestId('intake-step')).toHaveLength(0);
    expect(rows[1]).toHaveTextContent('—');

    const third = within(rows[2]!);
    expect(third.getByTestId('intake-link-status')).toHaveTextContent('Complete');
    expect(third.getByRole('img', { name: 'Questionnaires (PRO): done' })).toBeInTheDocument();
  });

  it('says when the day has no appointments', async () => {
    renderDashboard({ method: 'POST', path: PATH, body: { date: '11/20/2026', selfCheckIn: false, rows: [] } });
    expect(await screen.findByTestId('appt-dashboard-empty')).toHaveTextContent('No appointments on this day');
    expect(screen.queryAllByTestId('appt-dashboard-row')).toHaveLength(0);
    expect(screen.getByTestId('appt-dashboard-summary')).toHaveTextContent('0 appointments · 0 checked in · 0 intakes complete');
  });

  it('sends the chosen day, provider and room in the request body', async () => {
    const user = userEvent.setup();
    const { calls } = renderDashboard();
    await screen.findAllByTestId('appt-dashboard-row');

    await user.click(screen.getByRole('button', { name: 'Next day' }));
    await waitFor(() => expect(dashboardBodies(calls).at(-1)).toEqual({ date: '11/21/2026' }));
    expect(screen.getByRole('textbox', { name: 'Day' })).toHaveValue('11/21/2026');

    const dayInput = screen.getByRole('textbox', { name: 'Day' });
    await user.clear(dayInput);
    await user.type(dayInput, '12/01/2026');
    await waitFor(() => expect(dashboardBodies(calls).at(-1)).toEqual({ date: '12/01/2026' }));

    await user.click(screen.getByRole('button', { name: 'Previous day' }));
    await waitFor(() => expect(dashboardBodies(calls).at(-1)).toEqual({ date: '11/30/2026' }));
    await user.click(screen.getByRole('button', { name: 'Today' }));
    await waitFor(() => expect(dashboardBodies(calls).at(-1)).toEqual({ date: '11/20/2026' }));

    await choose(user, 'Provider', 'Daniela Ortiz');
    await waitFor(() => expect(dashboardBodies(calls).at(-1)).toEqual({ date: '11/20/2026', doctorId: ids.doctor }));
    await choose(user, 'Room', 'Room 1');
    await waitFor(() => expect(dashboardBodies(calls).at(-1)).toEqual({ date: '11/20/2026', doctorId: ids.doctor, roomId }));
  });

  it('shows a mistyped day under its field and does not ask the server', async () => {
    const user = userEvent.setup();
    const { calls } = renderDashboard();
    await screen.findAllByTestId('appt-dashboard-row');
    const asked = dashboardBodies(calls).length;
    const dayInput = screen.getByRole('textbox', { name: 'Day' });
    await user.clear(dayInput);
    await user.type(dayInput, '13/45/2026');
    expect(await screen.findByText('Date must be MM/DD/YYYY')).toBeInTheDocument();
    expect(dashboardBodies(calls)).toHaveLength(asked);
  });

  it('shows the error with a retry button when the day cannot be read', async () => {
    const user = userEvent.setup();
    const { calls } = renderDashboard({
      method: 'POST',
      path: PATH,
      status: 400,
      body: { error: 'Some fields are not valid', code: 'VALIDATION', fields: { date: 'dateInvalid' } },
    });
    const alert = await screen.findByTestId('appt-dashboard-error');
    expect(alert).toHaveTextContent('The appointments could not be loaded.');
    expect(screen.getByText('Date must be MM/DD/YYYY')).toBeInTheDocument();
    expect(screen.queryAllByTestId('appt-dashboard-row')).toHaveLength(0);
    const asked = dashboardBodies(calls).length;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(dashboardBodies(calls).length).toBeGreaterThan(asked));
  });

  it('reads in Spanish', async () => {
    renderDashboard();
    await i18n.changeLanguage('es');
    const rows = await screen.findAllByTestId('appt-dashboard-row');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Panel de citas');
    expect(within(rows[0]!).getByRole('img', { name: 'Nivel de dolor: hecho' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('img', { name: 'Pago: pendiente' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Sin enlace de admisión');
    expect(rows[2]).toHaveTextContent('Completa');
  });
});

describe('shiftMdy', () => {
  it('crosses months and years', () => {
    expect(shiftMdy('11/30/2026', 1)).toBe('12/01/2026');
    expect(shiftMdy('01/01/2027', -1)).toBe('12/31/2026');
    expect(shiftMdy('02/28/2028', 1)).toBe('02/29/2028');
  });
});
