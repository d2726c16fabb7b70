import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { OfficeVisitsReport } from '@pathwell/contracts/reports-visits';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, ids, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { i18n } from '../../../lib/i18n';
import { OfficeVisits } from './office-visits';

const REPORT = '/api/reports/officevisits';
const typeId = '88888888-8888-4888-8888-888888888881';
const zero = { total: 0, completed: 0, noShow: 0, open: 0, cancelled: 0, noShowRate: null };
const ortiz = { id: ids.doctor, name: 'Daniela Ortiz' };

const report: OfficeVisitsReport = {
  period: 'month',
  timeZone: 'Etc/GMT+5',
  from: '2031-03-01T05:00:00.000Z',
  to: '2031-05-01T05:00:00.000Z',
  rows: [],
  byPeriod: [
    { period: '2031-03-01', total: 3, completed: 2, noShow: 1, open: 0, cancelled: 0, noShowRate: 0.3333 },
    { period: '2031-04-01', total: 3, completed: 0, noShow: 1, open: 1, cancelled: 1, noShowRate: 1 },
  ],
  byProvider: [
    { provider: ortiz, total: 3, completed: 1, noShow: 1, open: 0, cancelled: 1, noShowRate: 0.5 },
    { provider: null, total: 3, completed: 1, noShow: 1, open: 1, cancelled: 0, noShowRate: 0.5 },
  ],
  byType: [
    {
      appointmentType: { id: typeId, name: 'Consult' },
      total: 6,
      completed: 2,
      noShow: 2,
      open: 1,
      cancelled: 1,
      noShowRate: 0.5,
    },
  ],
  byReason: [
    { reason: 'follow_up', total: 4, completed: 0, noShow: 2, open: 1, cancelled: 1, noShowRate: 1 },
    { reason: 'new_patient', total: 1, completed: 1, noShow: 0, open: 0, cancelled: 0, noShowRate: 0 },
    { reason: 'unknown', total: 1, completed: 1, noShow: 0, open: 0, cancelled: 0, noShowRate: 0 },
  ],
  totals: { total: 6, completed: 2, noShow: 2, open: 1, cancelled: 1, noShowRate: 0.5 },
};

const typesRoute = { path: '/api/customfields', body: { data: [{ id: typeId, name: 'Consult' }] } };

afterEach(async () => {
  localStorage.removeItem('doctorId');
  await i18n.changeLanguage('en');
});

describe('the office visits report', () => {
  it('loads this year by month for the selected doctor, with the status chart and its tables', async () => {
    localStorage.setItem('doctorId', ids.doctor);
    const { calls } = fakeApi([{ method: 'POST', path: REPORT, body: report }, typesRoute]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <OfficeVisits />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByRole('heading', { name: 'Office visits' })).toBeInTheDocument();
    const byPeriod = await screen.findByTestId('visits-by-period');
    expect(calls.find((call) => call.path === REPORT)?.body).toEqual({
      dateFilter: 7,
      period: 'month',
      appointmentTypeIds: [],
      language: 'en',
      doctorId: ids.doctor,
    });
    expect(screen.getByTestId('visits-chart')).toHaveAttribute('aria-label', expect.stringContaining('Stacked bar chart'));
    // Total, completed, no-show, open, cancelled, no-show rate.
    expect(within(byPeriod).getByRole('row', { name: /03\/2031/ })).toHaveTextContent('03/20313210033.3%');
    expect(within(screen.getByTestId('visits-by-provider')).getByRole('row', { name: /No provider/ })).toHaveTextContent(
      '3111050%',
    );
    const reasons = screen.getByTestId('visits-by-reason');
    expect(within(reasons).getByRole('row', { name: /Follow-up/ })).toHaveTextContent('Follow-up40211100%');
    expect(within(reasons).getByRole('row', { name: /Not recorded/ })).toBeInTheDocument();
    expect(screen.getByTestId('visits-window')).toHaveTextContent('No-show rate: no-shows ÷ (completed + no-shows)');
  });

  it('sends the chosen weeks and appointment types, and exports the same filter', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: REPORT, body: report },
      { method: 'POST', path: `${REPORT}/export`, body: 'csv', headers: { 'Content-Type': 'text/csv' } },
      typesRoute,
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <OfficeVisits />
      </SessionReactContext.Provider>,
    );
    const user = userEvent.setup();
    await screen.findByTestId('visits-by-period');
    const period = screen.getByRole('combobox', { name: 'Group by' });
    await user.click(period);
    const list = await waitFor(() => document.getElementById(period.getAttribute('aria-controls') ?? '')!);
    await user.click(within(list).getByRole('option', { name: 'Week', hidden: true }));
    const types = screen.getByRole('combobox', { name: 'Appointment types' });
    await user.click(types);
    await user.click(await screen.findByRole('option', { name: 'Consult', hidden: true }));
    await user.click(screen.getByTestId('visits-apply'));
    await waitFor(() => expect(calls.filter((call) => call.path === REPORT)).toHaveLength(2));
    expect(calls.filter((call) => call.path === REPORT)[1]!.body).toMatchObject({ period: 'week', appointmentTypeIds: [typeId] });
    await screen.findByTestId('visits-by-period');
    await user.click(screen.getByTestId('visits-export'));
    await waitFor(() => expect(calls.filter((call) => call.path === `${REPORT}/export`)).toHaveLength(1));
    expect(calls.find((call) => call.path === `${REPORT}/export`)!.body).toMatchObject({
      period: 'week',
      appointmentTypeIds: [typeId],
    });
  }, 30_000);

  it('says so when there are no appointments, and offers a retry when loading fails', async () => {
    fakeApi([
      { method: 'POST', path: REPORT, body: { ...report, byPeriod: [], byProvider: [], byType: [], byReason: [], totals: zero } },
      typesRoute,
    ]);
    const first = renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <OfficeVisits />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('visits-empty')).toHaveTextContent('No appointments in these dates.');
    expect(screen.getByTestId('visits-export')).toBeDisabled();
    first.unmount();
    fakeApi([
      { method: 'POST', path: REPORT, status: 500, body: { error: 'Something went wrong', code: 'INTERNAL' } },
      typesRoute,
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <OfficeVisits />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('visits-error', {}, { timeout: 4000 })).toHaveTextContent('The report could not be loaded.');
  });

  it('speaks Spanish', async () => {
    fakeApi([{ method: 'POST', path: REPORT, body: report }, typesRoute]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <OfficeVisits />
      </SessionReactContext.Provider>,
    );
    await i18n.changeLanguage('es');
    expect(await screen.findByRole('heading', { name: 'Visitas al consultorio' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Visitas nuevas y de seguimiento' })).toBeInTheDocument();
  });
});
