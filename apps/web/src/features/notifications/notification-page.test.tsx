import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { NotificationPage as Page, StaffNotification } from '@pathwell/contracts/messaging';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { NotificationPage } from './notification-page';

const note = (overrides: Partial<StaffNotification>): StaffNotification => ({
  id: '99999999-9999-4999-8999-999999999991',
  kind: 'formsCompleted',
  createdAt: '2026-11-20T15:30:00.000Z',
  patientId: '66666666-6666-4666-8666-666666666666',
  patientFirstName: 'Lucía',
  patientLastName: 'Núñez',
  seen: false,
  notified: true,
  responseId: null,
  urgent: false,
  ...overrides,
});

function renderPage(page: Page) {
  const api = fakeApi([
    { path: '/api/notifications/paged', body: page },
    { method: 'POST', path: '/api/notifications/seen', body: { marked: 1 } },
    { method: 'POST', path: '/api/notifications/clearall', body: { marked: 1 } },
  ]);
  renderAt(
    <SessionReactContext.Provider value={makeSession()}>
      <NotificationPage />
    </SessionReactContext.Provider>,
    { path: '/patients/nevro/chatternotification' },
  );
  return api;
}

describe('notification page', () => {
  it("lists notifications with the specification's text; opening an unseen one marks it seen", async () => {
    const user = userEvent.setup();
    const { calls } = renderPage({
      totalRecords: 2,
      totalExact: true,
      unseen: 1,
      data: [
        note({}),
        note({ id: '99999999-9999-4999-8999-999999999992', patientFirstName: 'Tom', patientLastName: 'Reyes', seen: true }),
      ],
    });
    const rows = await screen.findAllByTestId('notification-row');
    expect(rows[0]).toHaveTextContent('Lucía Núñez has submitted all forms and are ready for the doctor.');
    expect(rows[0]).toHaveTextContent('New');
    expect(rows[1]).toHaveTextContent('Seen');
    expect(screen.getByRole('button', { name: 'Clear All' })).toBeEnabled();
    await user.click(screen.getByRole('link', { name: /Lucía Núñez/ }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/api/notifications/seen')?.body).toEqual({ ids: [note({}).id] }),
    );
    expect(await screen.findByTestId('elsewhere')).toBeInTheDocument();
  });

  it('says No notifications, with Clear All disabled, and reads in Spanish', async () => {
    renderPage({ totalRecords: 0, totalExact: true, unseen: 0, data: [] });
    expect(await screen.findByTestId('notifications-page-empty')).toHaveTextContent('No notifications');
    expect(screen.getByRole('button', { name: 'Clear All' })).toBeDisabled();
    await i18n.changeLanguage('es');
    expect(await screen.findByText('No hay notificaciones')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Borrar todo' })).toBeDisabled();
  });
});
