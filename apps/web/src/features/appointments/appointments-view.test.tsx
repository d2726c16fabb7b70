import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '@pathwell/contracts/appointments';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, ids, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { AppointmentsView } from './appointments-view';

const patientId = '55555555-5555-4555-8555-555555555555';
const roomId = '66666666-6666-4666-8666-666666666666';

function appointment(overrides: Partial<Appointment> = {}): Appointment {
  return {
    id: crypto.randomUUID(),
    patient: { id: patientId, fullName: 'María José Núñez', birthDate: '1980-04-09' },
    doctor: { id: ids.doctor, name: 'Daniela Ortiz' },
    appointmentType: { id: crypto.randomUUID(), name: 'Follow-up visit' },
    room: { id: roomId, name: 'Room 1' },
    startsAt: '2025-03-10T15:00:00.000Z',
    durationMinutes: 30,
    status: 2,
    reason: 'follow_up',
    notes: null,
    externalId: null,
    painScore: 6,
    bodyLocationIds: [],
    checkedInAt: null,
    checkInDelayedUntil: null,
    ...overrides,
  };
}

const page = (data: Appointment[]) => ({ totalRecords: data.length, pageNumber: 0, pageSize: 15, data, message: '' });

function serve(extra: FakeRoute[] = [], data = [appointment()]) {
  return fakeApi([
    ...extra,
    { method: 'POST', path: '/api/patientappointments/filtered', body: page(data) },
    { method: 'GET', path: '/api/bodylocations', body: { totalRecords: 0, pageNumber: 0, pageSize: 999, data: [] } },
    { method: 'GET', path: '/api/rooms', body: { totalRecords: 0, pageNumber: 0, pageSize: 999, data: [] } },
    { method: 'GET', path: '/api/customfields', body: { totalRecords: 0, pageNumber: 0, pageSize: 999, data: [] } },
    { method: 'GET', path: '/api/users/providers', body: [{ id: ids.doctor, firstName: 'Daniela', lastName: 'Ortiz' }] },
  ]);
}

const renderView = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <AppointmentsView />
    </SessionReactContext.Provider>,
    { path: '/patients/appointments' },
  );

const bodiesTo = (calls: { path: string; body: unknown }[], path: string) =>
  calls.filter((call) => call.path === path).map((call) => call.body);

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

beforeEach(() => {
  // makeSession()'s clinic is at UTC-5: 15:00 UTC is 10:00 AM on 03/10/2025 there.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-10T15:00:00Z'));
});
afterEach(async () => {
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

describe('appointment list page', () => {
  it('asks with the section 9 defaults and shows patient, birth date and clinic time', async () => {
    const { calls } = serve();
    renderView();
    const table = await screen.findByRole('table', { name: 'Appointments' });
    expect(bodiesTo(calls, '/api/patientappointments/filtered')[0]).toEqual({
      dateFilter: 1,
      startDate: '',
      endDate: '',
      fixedDate: '',
      painScoreMin: 0,
      painScoreMax: 10,
      bodyLocation: '',
      status: '',
      paginationFilter: { pageSize: 15, pageNumber: 0 },
    });
    const row = within(table).getByTestId('appointment-row');
    expect(row).toHaveTextContent('María José Núñez');
    expect(row).toHaveTextContent('04/09/1980');
    expect(row).toHaveTextContent('Daniela Ortiz');
    expect(row).toHaveTextContent('03/10/2025 10:00 AM');
    expect(row).toHaveTextContent('Upcoming');
    expect(screen.getByTestId('appointments-total')).toHaveTextContent('1 appointment');
  });

  it('sends the fixed date and status the person chose, from page 0', async () => {
    const { calls } = serve();
    renderView();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Appointments' });
    await choose(user, 'Period', 'Fixed date');
    await user.type(await screen.findByRole('textbox', { name: 'Date' }), '03/12/2025');
    await choose(user, 'Status', 'Checking in');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(bodiesTo(calls, '/api/patientappointments/filtered').at(-1)).toMatchObject({
        dateFilter: 11,
        fixedDate: '03/12/2025',
        status: 1,
        painScoreMin: 0,
        painScoreMax: 10,
        paginationFilter: { pageSize: 15, pageNumber: 0 },
      }),
    );
  });

  it('a custom range without dates is stopped in the browser with the field messages', async () => {
    const { calls } = serve();
    renderView();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Appointments' });
    await choose(user, 'Period', 'Custom range');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findAllByText('This field is required')).not.toHaveLength(0);
    expect(bodiesTo(calls, '/api/patientappointments/filtered')).toHaveLength(1);
  });

  it('shows the empty text when nothing matches', async () => {
    serve([], []);
    renderView();
    expect(await screen.findByTestId('appointments-empty')).toHaveTextContent('No appointments match these filters.');
  });

  it('shows an error with a retry when the list fails', async () => {
    serve([
      { method: 'POST', path: '/api/patientappointments/filtered', status: 500, body: { error: 'Boom', code: 'INTERNAL' } },
    ]);
    renderView();
    expect(await screen.findByTestId('appointments-error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('schedules a new appointment with a patient found by the search, at the clinic’s time', async () => {
    const { calls, fetchMock } = serve([
      {
        method: 'GET',
        path: '/api/patients/search',
        body: [{ id: patientId, fullName: 'María José Núñez', birthDate: '1980-04-09' }],
      },
      { method: 'POST', path: '/api/patientappointments/schedule', status: 201, body: appointment() },
    ]);
    renderView();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Appointments' });
    await user.click(screen.getByRole('button', { name: 'Schedule appointment' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('combobox', { name: 'Patient' }), 'Mar');
    await user.click(await within(dialog).findByRole('option', { name: 'María José Núñez (04/09/1980)', hidden: true }));
    const searchUrl = fetchMock.mock.calls.map(([input]) => String(input)).find((url) => url.includes('/api/patients/search'));
    expect(searchUrl).toContain('searchParam=Mar');
    await choose(user, 'Doctor', 'Daniela Ortiz');
    const time = within(dialog).getByLabelText(/Time/);
    await user.clear(time);
    await user.type(time, '14:30');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() =>
      expect(bodiesTo(calls, '/api/patientappointments/schedule')[0]).toMatchObject({
        patientId,
        doctorId: ids.doctor,
        durationMinutes: 30,
        // 02:30 PM at UTC-5 on 03/10/2025.
        startsAt: '2025-03-10T19:30:00.000Z',
      }),
    );
  });
});
