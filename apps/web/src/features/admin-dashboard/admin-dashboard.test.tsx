import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminDashboard } from '@pathwell/contracts/admin-dashboard';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { Component as DashboardPage } from '../../routes/admin/dashboard';
import { fakeApi, ids, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';

const summary: AdminDashboard = {
  activeUsers: 12,
  signInsToday: 1234,
  failedSignInsThisWeek: 3,
  patients: 150,
  appointmentsToday: 9,
  formsCompletedThisWeek: 27,
  latestActivity: [
    {
      id: crypto.randomUUID(),
      createdAt: '2025-03-10T14:30:00.000Z',
      userId: ids.admin,
      userName: 'Alex Carter',
      email: 'admin@pathwell.demo',
      area: 'Admin Configuration',
      action: 'Created',
      targetType: 'room',
      targetId: null,
      description: 'Added Room 5',
      ip: '10.0.0.7',
    },
    {
      id: crypto.randomUUID(),
      createdAt: '2025-03-09T12:00:00.000Z',
      userId: null,
      userName: null,
      email: 'ghost@example.com',
      area: 'Login Activity',
      action: 'Failed',
      targetType: 'session',
      targetId: null,
      description: null,
      ip: '10.0.0.8',
    },
  ],
};

const renderPage = () =>
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <DashboardPage />
    </SessionReactContext.Provider>,
    { path: '/admin/dashboard' },
  );

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-10T15:00:00Z'));
});
afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('admin dashboard page', () => {
  it('shows the clinic’s counts', async () => {
    fakeApi([{ path: '/api/admin/dashboard', body: summary }]);
    renderPage();
    expect(await screen.findByTestId('dashboard-activeUsers')).toHaveTextContent('Active users12');
    expect(screen.getByTestId('dashboard-signInsToday')).toHaveTextContent('1,234');
    expect(screen.getByTestId('dashboard-failedSignInsThisWeek')).toHaveTextContent('3');
    expect(screen.getByTestId('dashboard-patients')).toHaveTextContent('Patients150');
    expect(screen.getByTestId('dashboard-appointmentsToday')).toHaveTextContent('9');
    expect(screen.getByTestId('dashboard-formsCompletedThisWeek')).toHaveTextContent('27');
  });

  it('lists the latest activity on the clinic’s clock and links to the full log', async () => {
    fakeApi([{ path: '/api/admin/dashboard', body: summary }]);
    renderPage();
    const entries = await screen.findAllByTestId('activity-feed-entry');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent('Alex Carter');
    expect(entries[0]).toHaveTextContent('Added Room 5');
    expect(entries[0]).toHaveTextContent('Today at 09:30 AM');
    expect(entries[1]).toHaveTextContent('ghost@example.com');
    expect(entries[1]).toHaveTextContent('Yesterday at 07:00 AM');
    expect(
      within(screen.getByRole('region', { name: 'Latest activity' })).getByRole('link', { name: 'View all activity' }),
    ).toHaveAttribute('href', '/activitylogs');
  });

  it('speaks Spanish', async () => {
    fakeApi([{ path: '/api/admin/dashboard', body: summary }]);
    renderPage();
    await i18n.changeLanguage('es');
    expect(await screen.findByTestId('dashboard-formsCompletedThisWeek')).toHaveTextContent(
      'Formularios completados esta semana27',
    );
    expect(screen.getByTestId('dashboard-activeUsers')).toHaveTextContent('Usuarios activos');
    expect(screen.getAllByTestId('activity-feed-entry')[0]).toHaveTextContent('Hoy a las 09:30 AM');
  });

  it('says "Something went wrong, Please try again!" when the dashboard does not load', async () => {
    fakeApi([{ path: '/api/admin/dashboard', status: 500, body: { error: 'Internal error', code: 'INTERNAL' } }]);
    renderPage();
    expect(await screen.findByTestId('dashboard-error', {}, { timeout: 5000 })).toHaveTextContent(
      'Something went wrong, Please try again!',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
