import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SessionContext } from '@pathwell/contracts/session';
import { fakeApi, ids, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { TopBar } from './top-bar';

function renderTopBar(session: SessionContext) {
  fakeApi([
    { path: '/api/users/providers', body: [{ id: ids.doctor, firstName: 'Daniela', lastName: 'Ortiz' }] },
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

  it('shows the clinic name linking to the patient list, and the bell without a made-up count', async () => {
    renderTopBar(makeSession());
    expect(await screen.findByRole('link', { name: /Riverside Spine & Pain/ })).toHaveAttribute('href', '/patients/list');
    // No notification feed exists yet: a "0" would claim there is nothing new, so no badge at all.
    expect(screen.queryByTestId('notification-count')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Notifications' })).toHaveAttribute('href', '/patients/nevro/chatternotification');
    expect(screen.getByRole('link', { name: 'Messages' })).toHaveAttribute('href', '/user-messages');
  });

  it('hides the messages icon from Staff, who have no messages page', async () => {
    renderTopBar(makeSession({ user: { role: 'Staff' } }));
    expect(await screen.findByTestId('user-menu')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Messages' })).not.toBeInTheDocument();
  });
});
