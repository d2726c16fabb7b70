import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '@pathwell/contracts/appointments';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, ids, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { StaffSchedule } from './staff-schedule';

const base: Appointment = {
  id: '77777777-7777-4777-8777-777777777777',
  patient: { id: '55555555-5555-4555-8555-555555555555', fullName: 'María José Núñez', birthDate: '1980-04-09' },
  doctor: { id: ids.doctor, name: 'Daniela Ortiz' },
  appointmentType: null,
  room: { id: '66666666-6666-4666-8666-666666666666', name: 'Room 1' },
  startsAt: '2025-03-10T16:00:00.000Z',
  durationMinutes: 30,
  status: 2,
  reason: null,
  notes: null,
  externalId: null,
  painScore: null,
  bodyLocationIds: [],
  checkedInAt: null,
  checkInDelayedUntil: null,
};
const second: Appointment = {
  ...base,
  id: '88888888-8888-4888-8888-888888888888',
  patient: { ...base.patient, id: '99999999-9999-4999-8999-999999999999', fullName: 'John Miller' },
  doctor: { id: ids.admin, name: 'Alex Carter' },
  room: { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Room 2' },
  startsAt: '2025-03-10T17:00:00.000Z',
  status: 1,
};

function serve(extra: FakeRoute[] = []) {
  return fakeApi([
    ...extra,
    { method: 'GET', path: '/api/patientappointments/day', body: { date: '03/10/2025', data: [base, second] } },
  ]);
}

const renderView = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <StaffSchedule />
    </SessionReactContext.Provider>,
    { path: '/patients/staffappointments' },
  );

const rowOf = async (name: string) =>
  (await screen.findAllByTestId('schedule-row')).find((row) => row.textContent?.includes(name))!;

beforeEach(() => {
  // UTC-5 clinic: 15:00 UTC is 10:00 AM on 03/10/2025; the first visit is at 11:00 AM.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-10T15:00:00Z'));
});
afterEach(async () => {
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

describe('staff schedule', () => {
  it('asks for today on the clinic calendar and groups the day by provider, then by room', async () => {
    const { fetchMock } = serve();
    renderView();
    expect(await screen.findByRole('region', { name: 'Daniela Ortiz' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Alex Carter' })).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('date=03%2F10%2F2025');
    expect(await rowOf('María')).toHaveTextContent('11:00 AM');
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Room' }));
    expect(await screen.findByRole('region', { name: 'Room 1' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Room 2' })).toBeInTheDocument();
  });

  it('check-in updates the row at once and keeps the server’s answer', async () => {
    const { calls } = serve([
      {
        method: 'POST',
        path: '/api/patientappointments/checkin',
        body: { ...base, status: 1, checkedInAt: '2025-03-10T15:00:00.000Z' },
      },
    ]);
    renderView();
    const user = userEvent.setup();
    const row = await rowOf('María');
    expect(within(row).getByTestId('appointment-status')).toHaveTextContent('Upcoming');
    await user.click(within(row).getByRole('button', { name: 'Check in' }));
    await waitFor(() => expect(within(row).getByTestId('appointment-status')).toHaveTextContent('Checking in'));
    expect(calls.find((call) => call.path === '/api/patientappointments/checkin')?.body).toEqual({ id: base.id });
    expect(await within(row).findByRole('button', { name: 'Complete' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Cancel check-in' })).toBeInTheDocument();
  });

  it('a refused check-in rolls the row back and says why', async () => {
    serve([
      {
        method: 'POST',
        path: '/api/patientappointments/checkin',
        status: 409,
        body: { error: 'An appointment that is Completed cannot become Checking in', code: 'CONFLICT' },
      },
    ]);
    renderView();
    const user = userEvent.setup();
    const row = await rowOf('María');
    await user.click(within(row).getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText(/cannot become Checking in/)).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByTestId('appointment-status')).toHaveTextContent('Upcoming'));
  });

  it('cancelling a check-in and delaying call their endpoints', async () => {
    const { calls } = serve([
      { method: 'POST', path: `/api/patientappointments/cancelcheckin/${second.id}`, body: { ...second, status: 2 } },
      {
        method: 'POST',
        path: `/api/patientappointments/delayedcheckin/${base.id}`,
        body: { ...base, checkInDelayedUntil: '2025-03-10T15:15:00.000Z' },
      },
    ]);
    renderView();
    const user = userEvent.setup();
    const checkedIn = await rowOf('John Miller');
    await user.click(within(checkedIn).getByRole('button', { name: 'Cancel check-in' }));
    await waitFor(() => expect(within(checkedIn).getByTestId('appointment-status')).toHaveTextContent('Upcoming'));
    const upcoming = await rowOf('María');
    await user.click(within(upcoming).getByRole('button', { name: 'Delay' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delay check-in by 15 minutes', hidden: true }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === `/api/patientappointments/delayedcheckin/${base.id}`)?.body).toEqual({
        minutes: 15,
      }),
    );
    expect(await within(upcoming).findByText('Delayed until 10:15 AM')).toBeInTheDocument();
  });

  it('shows the empty day', async () => {
    fakeApi([{ method: 'GET', path: '/api/patientappointments/day', body: { date: '03/10/2025', data: [] } }]);
    renderView();
    expect(await screen.findByTestId('schedule-empty')).toHaveTextContent('No appointments on this day.');
  });

  it('shows a load failure with a retry', async () => {
    fakeApi([{ method: 'GET', path: '/api/patientappointments/day', status: 500, body: { error: 'Boom', code: 'INTERNAL' } }]);
    renderView();
    expect(await screen.findByTestId('schedule-load-error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('offers no-show only after the start time', async () => {
    serve();
    renderView();
    const row = await rowOf('María');
    expect(within(row).queryByRole('button', { name: 'No-show' })).not.toBeInTheDocument();
  });
});
