import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { patientI18n } from './i18n';
import { linkStorage } from './storage';
import { renderPatient } from './test-helpers';

const PATIENT = '3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f';
const VISIT = '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d';
const PATH = `/patients/${PATIENT}/appointments/${VISIT}/patient-checkin`;
const API = `/api/selfcheckin/${PATIENT}/${VISIT}`;

type Reply = { status: number; body?: unknown };

/** The two self check-in calls, answered in turn (the last answer repeats); every call is kept. */
function fakeSelfCheckIn(
  state: Reply,
  checkIns: Reply[] = [{ status: 200, body: { checkedIn: true, confirmationPage: false } }],
) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  let posted = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init?.method ?? 'GET').toUpperCase();
      calls.push({ method, path: url.pathname, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const reply =
        url.pathname !== API
          ? { status: 404, body: { code: 'NOT_FOUND' } }
          : method === 'GET'
            ? state
            : checkIns[Math.min(posted++, checkIns.length - 1)]!;
      return new Response(JSON.stringify(reply.body ?? {}), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

const ready = { status: 200, body: { clinicName: 'Riverside Spine & Pain', state: 'ready', lockedMinutes: null } };

async function answer(user: ReturnType<typeof userEvent.setup>, lastName: string, birth: string, submit = 'Check in') {
  await user.clear(await screen.findByLabelText('Last name'));
  await user.type(screen.getByLabelText('Last name'), lastName);
  await user.clear(screen.getByLabelText('Date of birth'));
  await user.type(screen.getByLabelText('Date of birth'), birth);
  await user.click(screen.getByRole('button', { name: submit }));
}

describe('self check-in from the QR page', () => {
  it("checks the patient in with last name and date of birth, under the clinic's name", async () => {
    const calls = fakeSelfCheckIn(ready);
    renderPatient(PATH);
    expect(await screen.findByText('Riverside Spine & Pain')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Check in for your visit' })).toBeInTheDocument();
    const user = userEvent.setup();
    await answer(user, 'Ortega', '06151968');
    expect(await screen.findByRole('heading', { name: 'You are checked in' })).toHaveFocus();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ lastName: 'Ortega', dateOfBirth: '06/15/1968' });
  });

  it('offers to finish an unfinished intake on the same phone, without asking who they are again', async () => {
    const token = 'Nw0123456789abcdefghijklmnopqrstuvwxyzABCDE';
    fakeSelfCheckIn(ready, [
      {
        status: 200,
        body: {
          checkedIn: true,
          confirmationPage: false,
          continueIntake: { token, appointmentId: VISIT, accessToken: 'access-9' },
        },
      },
    ]);
    renderPatient(PATH);
    await answer(userEvent.setup(), 'Ortega', '06151968');
    const next = await screen.findByTestId('self-checkin-continue');
    expect(next).toHaveTextContent('Your forms for this visit are not finished yet.');
    expect(screen.getByRole('link', { name: 'Finish my forms' })).toHaveAttribute('href', `/patients/intake/${token}/${VISIT}`);
    expect(linkStorage.accessToken(token)).toBe('access-9');
  });

  it('says plainly when the answers do not match, then when the page is locked', async () => {
    fakeSelfCheckIn(ready, [
      { status: 400, body: { code: 'VALIDATION', fields: { lastName: 'identityMismatch' }, params: { attemptsLeft: 1 } } },
      { status: 429, body: { code: 'RATE_LIMITED', messageKey: 'identityLocked', params: { minutes: 15 } } },
    ]);
    renderPatient(PATH);
    const user = userEvent.setup();
    await answer(user, 'Ortiz', '06151968');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/do not match|does not match|no coinciden/i);
    // The lockout warns before it pauses the page.
    expect(alert).toHaveTextContent('1 try left before a 15-minute pause.');
    await answer(user, 'Ortiz', '06151968');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please try again in 15 minutes or ask at the front desk.');
  });

  it('a visit on another day, and an unknown code, say what to do', async () => {
    fakeSelfCheckIn({ status: 200, body: { clinicName: 'Riverside Spine & Pain', state: 'notToday', lockedMinutes: null } });
    const { unmount } = renderPatient(PATH);
    expect(await screen.findByTestId('self-checkin-notToday')).toHaveTextContent('Your visit is not today');
    unmount();
    fakeSelfCheckIn({ status: 404, body: { code: 'NOT_FOUND', messageKey: 'appointmentNotFound' } });
    renderPatient(PATH);
    expect(await screen.findByTestId('self-checkin-notFound')).toHaveTextContent('This check-in code is not available');
  });

  it('speaks Spanish', async () => {
    fakeSelfCheckIn(ready);
    renderPatient(PATH);
    await screen.findByLabelText('Last name');
    await act(() => patientI18n.changeLanguage('es'));
    expect(screen.getByRole('heading', { level: 1, name: 'Registre su llegada a la cita' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Registrar llegada' })).toBeInTheDocument();
    await act(() => patientI18n.changeLanguage('en'));
  });
});
