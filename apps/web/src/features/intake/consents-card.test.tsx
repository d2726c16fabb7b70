import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PatientConsents } from '@pathwell/contracts/consent-links';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { ConsentsCard } from './consents-card';

const patientId = '77777777-7777-4777-8777-777777777771';
const consent = (kind: 'newPatientAgreement' | 'shotConsent', expired: boolean) => ({
  id: kind === 'shotConsent' ? '55555555-5555-4555-8555-555555555551' : '55555555-5555-4555-8555-555555555552',
  kind,
  title: kind,
  language: 'es' as const,
  version: 'sha256:abc',
  signedAt: '2024-03-20T15:00:00.000Z',
  expiresAt: expired ? '2025-03-20T15:00:00.000Z' : '2027-03-20T15:00:00.000Z',
  expired,
  pdfUrl: `/api/patients/${patientId}/consents/x/pdf`,
});
const panel = (overrides: Partial<PatientConsents> = {}): PatientConsents => ({
  latest: [consent('newPatientAgreement', true)],
  shotConsentEnabled: true,
  pending: [],
  ...overrides,
});

describe('consents on the patient dashboard', () => {
  it('shows each consent with its expiry, asks for an expired agreement again, and shows the link to hand over', async () => {
    const { calls } = fakeApi([
      { path: `/api/patients/${patientId}/consents`, body: panel() },
      {
        method: 'POST',
        path: '/api/patients/consentlinks',
        status: 201,
        body: {
          linkId: '66666666-6666-4666-8666-666666666661',
          url: 'http://localhost/patients/resignconsent/tok',
          expiresAt: '2026-12-02T00:00:00.000Z',
          sent: [{ channel: 'email', status: 'stored' }],
        },
      },
    ]);
    renderAt(<ConsentsCard patientId={patientId} timeZone="Etc/GMT+5" />);
    const row = await screen.findByTestId('consent-newPatientAgreement');
    expect(row).toHaveTextContent('New patient agreement');
    expect(row).toHaveTextContent('expired 03/20/2025');
    expect(within(row).getByText('Expired')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Ask to sign the agreement again' }));
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByTestId('consent-link-created')).toHaveTextContent('Link sent by Email.');
    expect(screen.getByTestId('consent-link-url')).toHaveValue('http://localhost/patients/resignconsent/tok');
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      patientId,
      kinds: ['newPatientAgreement'],
      send: ['email'],
    });
  });

  it('offers the injection consent only when the clinic signs it digitally, and says what is waiting', async () => {
    fakeApi([
      {
        path: `/api/patients/${patientId}/consents`,
        body: panel({
          latest: [consent('newPatientAgreement', false)],
          shotConsentEnabled: false,
          pending: [
            {
              linkId: '66666666-6666-4666-8666-666666666662',
              kinds: ['shotConsent'],
              createdAt: '2026-11-20T15:00:00.000Z',
              expiresAt: '2026-11-27T15:00:00.000Z',
            },
          ],
        }),
      },
    ]);
    renderAt(<ConsentsCard patientId={patientId} timeZone="Etc/GMT+5" />);
    expect(await screen.findByTestId('consent-pending')).toHaveTextContent(
      'Waiting for signature: Injection consent (sent 11/20/2026)',
    );
    expect(screen.queryByRole('button', { name: 'Send injection consent' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask to sign the agreement again' })).not.toBeInTheDocument();
  });

  it('shows the field problem when the patient cannot be reached that way', async () => {
    fakeApi([
      { path: `/api/patients/${patientId}/consents`, body: panel({ latest: [] }) },
      {
        method: 'POST',
        path: '/api/patients/consentlinks',
        status: 400,
        body: { error: 'Validation failed', code: 'VALIDATION', fields: { send: 'patientEmailMissing' } },
      },
    ]);
    renderAt(<ConsentsCard patientId={patientId} timeZone="Etc/GMT+5" />);
    expect(await screen.findByText('No signed consents yet.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send injection consent' }));
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText('This patient has no email address')).toBeInTheDocument();
  });
});
