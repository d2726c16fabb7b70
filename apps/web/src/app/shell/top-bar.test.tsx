import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionContext } from '@pathwell/contracts/session';
import { fakeApi, ids, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { TopBar } from './top-bar';

function renderTopBar(session: SessionContext) {
  fakeApi([
    { path: '/api/users/providers', body: [{ id: ids.doctor, firstName: 'Daniela', lastName: 'Ortiz' }] },
    {
      path: '/api/notifications',
      body: {
        unseen: 1,
        data: [
          {
            id: '55555555-5555-4555-8555-555555555555',
            kind: 'formsCompleted',
            createdAt: '2026-11-20T15:30:00.000Z',
            patientId: '66666666-6666-4666-8666-666666666666',
            patientFirstName: 'Lucía',
            patientLastName: 'Núñez',
            seen: false,
            notified: true,
          },
        ],
      },
    },
    { path: '/api/usermessages/users', body: { currentUserId: ids.admin, unread: 2, data: [] } },
    {
      path: '/api/parent/clinics',
      body: [
        { id: ids.otherClinic, name: 'Lakeside Pain Center' },
        { id: ids.clinic, name: 'Riverside Spine & Pain' },
      ],
    },
  ]);
  return renderAt(
    <TopBar session={session} menuOpened onToggleMenu={() => undefined} wide compact={false} onSignOut={() => undefined} />,
  );
}

describe('top bar', () => {
  it('hides the clinic selector from users who are not parent users', async () => {
    renderTopBar(makeSession());
    expect(await screen.findByTestId('user-menu')).toBeInTheDocument();
    expect(screen.queryByTestId('clinic-selector')).not.toBeInTheDocument();
    expect(screen.getByTestId('doctor-selector')).toBeInTheDocument();
  });

  it('shows the clinic selector to parent users', async () => {
    renderTopBar(makeSession({ user: { isParent: true } }));
    expect(await screen.findByTestId('clinic-selector')).toBeInTheDocument();
    expect(screen.getByTestId('clinic-selector')).toHaveValue('Riverside Spine & Pain');
  });

  it('hides the doctor selector from Doctors, who work as themselves', async () => {
    renderTopBar(makeSession({ user: { id: ids.doctor, role: 'Doctor', firstName: 'Daniela', lastName: 'Ortiz' } }));
    expect(await screen.findByTestId('user-menu')).toBeInTheDocument();
    expect(screen.queryByTestId('doctor-selector')).not.toBeInTheDocument();
  });

  it('shows the clinic name linking to the patient list, the unseen notifications and the unread messages', async () => {
    renderTopBar(makeSession());
    expect(await screen.findByRole('link', { name: /Riverside Spine & Pain/ })).toHaveAttribute('href', '/patients/list');
    expect(await screen.findByTestId('notification-count')).toHaveTextContent('1');
    expect(await screen.findByRole('link', { name: 'Messages: 2 unread' })).toHaveAttribute('href', '/user-messages');
    await userEvent.click(screen.getByRole('button', { name: 'Notifications: 1 new' }));
    const item = await screen.findByTestId('notification-item');
    expect(item).toHaveTextContent('Lucía Núñez has submitted all forms and are ready for the doctor.');
    expect(item).toHaveAttribute('data-unseen');
    expect(screen.getByText('See all notifications').closest('a')).toHaveAttribute('href', '/patients/nevro/chatternotification');
    expect(screen.getByTestId('notifications-clear-all')).toBeEnabled();
  });

  it('shows No notifications and a disabled Clear All when there are none', async () => {
    fakeApi([
      { path: '/api/notifications', body: { unseen: 0, data: [] } },
      { path: '/api/usermessages/users', body: { currentUserId: ids.admin, unread: 0, data: [] } },
      { path: '/api/users/providers', body: [] },
    ]);
    renderAt(
      <TopBar
        session={makeSession()}
        menuOpened
        onToggleMenu={() => undefined}
        wide
        compact={false}
        onSignOut={() => undefined}
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByTestId('notifications-empty')).toHaveTextContent('No notifications');
    expect(screen.getByTestId('notifications-clear-all')).toBeDisabled();
    expect(screen.queryByTestId('notification-count')).not.toBeInTheDocument();
  });

  it('hides the messages icon from Staff, who have no messages page', async () => {
    renderTopBar(makeSession({ user: { role: 'Staff' } }));
    expect(await screen.findByTestId('user-menu')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Messages' })).not.toBeInTheDocument();
  });
});
