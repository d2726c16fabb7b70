import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReferralPatients, ReferralTracker as Report } from '@pathwell/contracts/reports-referrals';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { ReferralTracker } from './referral-tracker';

const referrer = '77777777-7777-4777-8777-777777777771';
const patientId = '77777777-7777-4777-8777-777777777772';
const funnel = (referred: number, seen: number, hadProcedure: number, improved: number) => ({
  referred,
  seen,
  hadProcedure,
  improved,
});

const report: Report = {
  timeZone: 'Etc/GMT+5',
  from: '2015-01-01T05:00:00.000Z',
  to: '2016-01-01T05:00:00.000Z',
  period: 'month',
  computedAt: '2026-01-01T00:00:00.000Z',
  rows: [
    {
      periodStart: '2015-02-01',
      source: 1,
      providerId: referrer,
      providerName: 'Dr. Ortiz',
      providerPractice: 'Ortiz Spine',
      ...funnel(4, 3, 2, 1),
    },
  ],
  bySource: [
    { source: 1, ...funnel(4, 3, 2, 1) },
    { source: null, ...funnel(1, 0, 0, 0) },
  ],
  byProvider: [{ providerId: referrer, providerName: 'Dr. Ortiz', providerPractice: 'Ortiz Spine', ...funnel(4, 3, 2, 1) }],
  byPeriod: [{ periodStart: '2015-02-01', ...funnel(5, 3, 2, 1) }],
  totals: funnel(5, 3, 2, 1),
};

const patients: ReferralPatients = {
  totalRecords: 1,
  rows: [
    {
      patientId,
      firstName: 'Rosa',
      lastName: 'Delgado',
      referredAt: '2015-02-10T15:00:00.000Z',
      source: 1,
      providerName: 'Dr. Ortiz',
      seen: true,
      hadProcedure: true,
      improved: true,
    },
  ],
};

const routes = (body: unknown = report, status = 200) => [
  { method: 'POST', path: '/api/reports/referraltracker', body, status },
  { method: 'POST', path: '/api/reports/referraltracker/patients', body: patients },
  { path: '/api/referrals', body: { data: [{ id: referrer, name: 'Dr. Ortiz', attributes: {} }], totalRecords: 1 } },
];

describe('the referral tracker', () => {
  it('shows the funnel per source with rates, the chart and its tables', async () => {
    const { calls } = fakeApi(routes());
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ReferralTracker />
      </SessionReactContext.Provider>,
    );
    const bySource = await screen.findByTestId('referral-by-source');
    expect(bySource.tagName).toBe('TABLE');
    const [physician, none] = within(bySource).getAllByTestId('referral-by-source-row');
    // 3 of 4 seen = 75%, 2 of 4 = 50%, 1 of 4 = 25%.
    expect(physician).toHaveTextContent('Physician referral');
    expect(physician).toHaveTextContent('75%');
    expect(physician).toHaveTextContent('50%');
    expect(physician).toHaveTextContent('25%');
    expect(none).toHaveTextContent('Not recorded');
    expect(screen.getByTestId('referral-by-provider')).toHaveTextContent('Dr. Ortiz · Ortiz Spine');
    expect(screen.getByTestId('referral-by-period')).toHaveTextContent('02/2015');
    expect(screen.getByTestId('referral-chart')).toHaveAttribute('aria-label', expect.stringContaining('same numbers'));
    expect(screen.getByTestId('referral-window')).toHaveTextContent('5 referred, 3 seen, 2 with a procedure, 1 improved.');
    // The long period × source × provider table opens on request.
    expect(screen.queryByTestId('referral-by-cell')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByTestId('referral-detail-toggle'));
    expect(screen.getByTestId('referral-by-cell')).toHaveTextContent('02/2015');
    expect(screen.getByTestId('referral-detail-toggle')).toHaveAttribute('aria-expanded', 'true');
    const sent = calls.find((call) => call.path === '/api/reports/referraltracker')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ dateFilter: 7, period: 'month', referralSources: [], referringProviderIds: [] });
  });

  it('opens the patients behind a count, with the cell and the measure', async () => {
    const { calls } = fakeApi(routes());
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ReferralTracker />
      </SessionReactContext.Provider>,
    );
    const user = userEvent.setup();
    const bySource = await screen.findByTestId('referral-by-source');
    await user.click(within(bySource).getByRole('button', { name: /^3 .*Seen: Physician referral/ }));
    const row = await screen.findByTestId('referral-patient-row');
    expect(row).toHaveTextContent('Delgado, Rosa');
    expect(within(row).getByRole('link', { name: 'Delgado, Rosa' })).toHaveAttribute(
      'href',
      `/patients/patientdashboard/${patientId}`,
    );
    const drill = calls.find((call) => call.path === '/api/reports/referraltracker/patients')!.body as Record<string, unknown>;
    expect(drill).toMatchObject({ measure: 'seen', source: 1, pageNumber: 0 });
  });

  it('checks a custom range before asking and sends the period', async () => {
    const { calls } = fakeApi(routes());
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ReferralTracker />
      </SessionReactContext.Provider>,
    );
    const user = userEvent.setup();
    await screen.findByTestId('referral-by-source');
    const pick = async (name: string, option: string) => {
      const box = screen.getByRole('combobox', { name });
      await user.click(box);
      const listbox = await waitFor(() => document.getElementById(box.getAttribute('aria-controls') ?? '')!);
      await user.click(within(listbox).getByRole('option', { name: option, hidden: true }));
    };
    await pick('Dates', 'Custom range');
    await user.click(screen.getByTestId('referral-apply'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    await user.type(screen.getByLabelText('From'), '01/01/2015');
    await user.type(screen.getByLabelText('To'), '12/31/2015');
    await pick('Period', 'Quarter');
    await user.click(screen.getByTestId('referral-apply'));
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/reports/referraltracker')).toHaveLength(2));
    expect(calls.filter((call) => call.path === '/api/reports/referraltracker').at(-1)!.body).toMatchObject({
      dateFilter: 9,
      startDate: '01/01/2015',
      endDate: '12/31/2015',
      period: 'quarter',
    });
  });

  it('says so when nobody was referred', async () => {
    fakeApi(routes({ ...report, rows: [], bySource: [], byProvider: [], byPeriod: [], totals: funnel(0, 0, 0, 0) }));
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ReferralTracker />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('referral-empty')).toHaveTextContent('No patients were referred in these dates.');
  });

  it('shows the error with a retry', async () => {
    fakeApi(routes({ error: 'Internal error', code: 'INTERNAL' }, 500));
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ReferralTracker />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('referral-error', {}, { timeout: 4000 })).toHaveTextContent(
      'The report could not be loaded.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
