import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PumpRefillsDue } from '@pathwell/contracts/interventions';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { PumpRefillsDueCard } from './pump-refills-card';

const list = (withinDays: number, data: PumpRefillsDue['data']): PumpRefillsDue => ({ today: '2026-11-28', withinDays, data });
const row = (overrides: Partial<PumpRefillsDue['data'][number]>): PumpRefillsDue['data'][number] => ({
  interventionId: '66666666-6666-4666-8666-666666666661',
  patientId: '77777777-7777-4777-8777-777777777771',
  patientName: 'Pia Overdue',
  performedOn: '2026-09-09',
  nextRefillDate: '2026-11-25',
  daysUntil: -3,
  medicines: ['Morphine, preservative-free'],
  providerName: 'Dana Reyes',
  ...overrides,
});

function renderAs(role: 'Admin' | 'Doctor' | 'Staff' | 'SystemManager') {
  return renderAt(
    <SessionReactContext.Provider value={makeSession({ user: { role } })}>
      <PumpRefillsDueCard />
    </SessionReactContext.Provider>,
  );
}

describe('pump refills coming due', () => {
  it('lists the refills, overdue first, links each patient, and looks further ahead on request', async () => {
    const { calls } = fakeApi([
      {
        path: '/api/pumprefills/due',
        body: list(30, [
          row({}),
          row({
            interventionId: '66666666-6666-4666-8666-666666666662',
            patientId: '77777777-7777-4777-8777-777777777772',
            patientName: 'Pia Replaced',
            nextRefillDate: '2026-12-18',
            daysUntil: 20,
          }),
        ]),
      },
    ]);
    renderAs('Staff');
    const rows = await screen.findAllByTestId('pump-refill-due-row');
    expect(screen.getByRole('heading', { name: 'Pump refills coming due (2)' })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('3 days overdue');
    expect(rows[0]).toHaveTextContent('due 11/25/2026 · Morphine, preservative-free · last pump visit 09/09/2026 · Dana Reyes');
    expect(within(rows[0]!).getByRole('link', { name: 'Pia Overdue' })).toHaveAttribute(
      'href',
      '/patients/patientdashboard/77777777-7777-4777-8777-777777777771',
    );
    expect(rows[1]).toHaveTextContent('in 20 days');
    expect(calls[0]!.query.get('withinDays')).toBe('30');
    await userEvent.setup().click(screen.getByRole('radio', { name: '90 days' }));
    await vi.waitFor(() => expect(calls.some((call) => call.query.get('withinDays') === '90')).toBe(true));
  });

  it('says when none is due, shows an error, and is not shown to a System Manager', async () => {
    fakeApi([{ path: '/api/pumprefills/due', body: list(30, []) }]);
    const empty = renderAs('Doctor');
    expect(await screen.findByText('No pump refill is due within 30 days.')).toBeInTheDocument();
    empty.unmount();

    fakeApi([{ path: '/api/pumprefills/due', status: 500, body: { error: 'boom', code: 'INTERNAL' } }]);
    const failed = renderAs('Admin');
    expect(await screen.findByRole('alert')).toHaveTextContent('The pump refills could not be loaded.');
    failed.unmount();

    const { calls } = fakeApi([]);
    renderAs('SystemManager');
    expect(screen.queryByTestId('pump-refills-due')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('speaks Spanish', async () => {
    fakeApi([{ path: '/api/pumprefills/due', body: list(30, [row({})]) }]);
    renderAs('Staff');
    await i18n.changeLanguage('es');
    try {
      expect(await screen.findByText('3 días de retraso')).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Recargas de bomba próximas (1)' })).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
