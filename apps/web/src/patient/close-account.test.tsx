import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { CloseAccountRequest } from './close-account';
import { patientI18n } from './i18n';
import { renderPatient, TOKEN } from './test-helpers';

const PATIENT = '3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f';
const PAGE = `/patients/closeaccount/${PATIENT}/${TOKEN}`;

type Reply = { status: number; body?: unknown };
function fakeFetch(route: (method: string, path: string) => Reply) {
  const calls: { method: string; path: string; body: unknown; auth: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const method = (init?.method ?? 'GET').toUpperCase();
      calls.push({
        method,
        path,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        auth: new Headers(init?.headers).get('Authorization'),
      });
      const reply = route(method, path);
      return new Response(JSON.stringify(reply.body ?? {}), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

const state = (value: 'ready' | 'closed' | 'expired', language: 'en' | 'es' = 'en') => ({
  status: 200,
  body: { clinicName: 'Riverside Spine & Pain', state: value, language },
});

describe('the emailed close-account page', () => {
  it('says what closing means and closes the account on confirmation', async () => {
    const calls = fakeFetch((method) => (method === 'GET' ? state('ready') : state('closed')));
    renderPatient(PAGE);
    expect(await screen.findByTestId('close-account-ready')).toHaveTextContent('Your appointments are not cancelled');
    expect(screen.getByText('Riverside Spine & Pain')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close my account' }));
    expect(await screen.findByTestId('close-account-closed')).toHaveTextContent('Your account is closed');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/patients/closeaccountconfirmation', body: { patientId: PATIENT, token: TOKEN }, auth: null },
    ]);
  });

  it("reads in the link's language and says when the link has expired", async () => {
    fakeFetch(() => state('expired', 'es'));
    renderPatient(PAGE);
    expect(await screen.findByTestId('close-account-expired')).toHaveTextContent('Este enlace ha caducado');
    expect(screen.queryByRole('button', { name: /Cerrar mi cuenta/ })).not.toBeInTheDocument();
  });

  it('answers an unknown link with not found', async () => {
    fakeFetch(() => ({ status: 404, body: { code: 'NOT_FOUND' } }));
    renderPatient(PAGE);
    expect(await screen.findByTestId('close-account-notFound')).toBeInTheDocument();
  });
});

describe('asking to close the account from the intake', () => {
  const renderRequest = (onSessionEnded = vi.fn()) => {
    void patientI18n.changeLanguage('en');
    render(
      <I18nextProvider i18n={patientI18n}>
        <CloseAccountRequest token={TOKEN} accessToken="access-1" language="en" onSessionEnded={onSessionEnded} />
      </I18nextProvider>,
    );
    return onSessionEnded;
  };

  it('asks before sending, then says where the confirmation went', async () => {
    const calls = fakeFetch(() => ({ status: 200, body: { sentTo: 'r***@example.test', expiresInHours: 24 } }));
    renderRequest();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Close my account' }));
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Email me the confirmation link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('We sent a confirmation link to r***@example.test');
    expect(calls).toEqual([
      { method: 'POST', path: `/api/intake/${TOKEN}/close-account`, body: { language: 'en' }, auth: 'Bearer access-1' },
    ]);
  });

  it('tells a patient without an email to call, and sends an ended session back to the identity check', async () => {
    let reply: Reply = { status: 409, body: { code: 'CONFLICT', messageKey: 'noEmailOnFile' } };
    fakeFetch(() => reply);
    const ended = renderRequest();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Close my account' }));
    await user.click(screen.getByRole('button', { name: 'Email me the confirmation link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please call the clinic to close your account');
    reply = { status: 401, body: { code: 'UNAUTHENTICATED' } };
    await user.click(screen.getByRole('button', { name: 'Email me the confirmation link' }));
    await vi.waitFor(() => expect(ended).toHaveBeenCalled());
  });
});
