import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProviderBaselines as Report } from '@pathwell/contracts/reports-referrals';
import { i18n } from '../../../lib/i18n';
import { SessionReactContext } from '../../../app/session-context';
import { fakeApi, makeSession } from '../../../test/fake-api';
import { renderAt } from '../../../test/render';
import { ProviderBaselines } from './provider-baselines';

const doctorId = '88888888-8888-4888-8888-888888888881';
const shape = {
  newPatients: 2,
  baselinePain: { mean: 6, count: 2 },
  followUpPain: { mean: 4, count: 1 },
  forms: [{ formCode: 2, baseline: { mean: 45, count: 2 }, followUp: { mean: 40, count: 1 } }],
  appointments: { upcoming: 0, checkingIn: 0, completed: 3, noShow: 1, total: 4 },
  intake: { due: 4, completedBefore: 2, rate: 0.5 },
};
const report: Report = {
  timeZone: 'Etc/GMT+5',
  from: '2015-03-01T05:00:00.000Z',
  to: '2015-04-01T05:00:00.000Z',
  computedAt: '2026-01-01T00:00:00.000Z',
  rows: [{ providerId: doctorId, providerName: 'Morgan Reyes', ...shape }],
  totals: shape,
};
const url = '/api/patientappointments/providerappointmentreport';

describe('the Provider Appointment Dashboard', () => {
  it('shows each provider with baselines, follow-ups, appointments and intake, and the chart with its table', async () => {
    const { calls } = fakeApi([{ method: 'POST', path: url, body: report }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ProviderBaselines />
      </SessionReactContext.Provider>,
    );
    const [row, totals] = await screen.findAllByTestId('baselines-row');
    expect(row).toHaveTextContent('Morgan Reyes');
    expect(row).toHaveTextContent('Baseline: 6 (n = 2)');
    expect(row).toHaveTextContent('Follow-up: 4 (n = 1)');
    expect(row).toHaveTextContent('ODI: 45');
    expect(row).toHaveTextContent('45 (n = 2) → 40 (n = 1)');
    expect(row).toHaveTextContent('4 total: 0 upcoming, 0 checking in, 3 completed, 1 no-show');
    expect(row).toHaveTextContent('50% (2 of 4)');
    expect(totals).toHaveTextContent('All providers');
    const intake = screen.getByTestId('baselines-intake-table');
    expect(within(intake).getByRole('row', { name: /Morgan Reyes/ })).toHaveTextContent('50%');
    expect(screen.getByTestId('baselines-chart')).toHaveAttribute('role', 'img');
    expect(calls[0]!.body).toMatchObject({ dateFilter: 5 });
  });

  it('explains when the clinic has the dashboard off', async () => {
    fakeApi([{ method: 'POST', path: url, status: 403, body: { error: 'x', code: 'FORBIDDEN', messageKey: 'featureOff' } }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ProviderBaselines />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('baselines-off')).toHaveTextContent('does not use the Provider Appointment Dashboard');
  });

  it('says so when there are no appointments', async () => {
    fakeApi([{ method: 'POST', path: url, body: { ...report, rows: [] } }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ProviderBaselines />
      </SessionReactContext.Provider>,
    );
    expect(await screen.findByTestId('baselines-empty')).toHaveTextContent('No appointments in these dates.');
  });

  it('speaks Spanish', async () => {
    fakeApi([{ method: 'POST', path: url, body: report }]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <ProviderBaselines />
      </SessionReactContext.Provider>,
    );
    await i18n.changeLanguage('es');
    expect(await screen.findByText('Panel de citas por proveedor')).toBeInTheDocument();
    expect((await screen.findAllByTestId('baselines-row'))[0]).toHaveTextContent('Inicial: 6 (n = 2)');
  });
});
