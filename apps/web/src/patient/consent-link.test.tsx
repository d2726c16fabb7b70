import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConsentLinkView } from '@pathwell/contracts/consent-links';
import { renderPatient, statusBody, TOKEN } from './test-helpers';

const view = (overrides: Partial<ConsentLinkView> = {}): ConsentLinkView => ({
  patientFirstName: 'Jorge',
  clinicName: 'Riverside Spine & Pain',
  completedAt: null,
  documents: [
    {
      kind: 'shotConsent',
      title: { en: 'Consent for injection', es: 'Consentimiento para inyección' },
      text: {
        en: 'My provider has explained the injection.\n\nI agree to have the injection.',
        es: 'Mi proveedor me ha explicado la inyección.',
      },
      version: 'sha256:abc',
      fileUrl: null,
      signed: false,
    },
  ],
  ...overrides,
});

type Reply = { status: number; body?: unknown };
function fakeConsentServer(replies: { view: ConsentLinkView; sign?: Reply[] }) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  let signs = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const method = (init?.method ?? 'GET').toUpperCase();
      calls.push({ method, path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      let reply: Reply = { status: 404, body: { code: 'NOT_FOUND' } };
      if (path === `/api/patient-links/${TOKEN}/status`)
        reply = { status: 200, body: statusBody({ formTitle: { en: 'Consent to sign', es: 'Consentimiento para firmar' } }) };
      else if (path === `/api/patient-links/${TOKEN}/verify`)
        reply = { status: 200, body: { accessToken: 'access-1', expiresAt: '2030-01-01T00:00:00Z' } };
      else if (path === `/api/consent-links/${TOKEN}` && method === 'GET') reply = { status: 200, body: replies.view };
      else if (path === `/api/consent-links/${TOKEN}/sign`) {
        const list = replies.sign ?? [{ status: 200, body: { signed: true, completed: true } }];
        reply = list[Math.min(signs++, list.length - 1)]!;
      }
      return new Response(JSON.stringify(reply.body ?? {}), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

async function verify(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Last name'), 'Valdez');
  await user.type(screen.getByLabelText('Date of birth'), '07301971');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

/** Draws one stroke on the signature pad's canvas. */
function drawSignature() {
  const canvas = document.querySelector('canvas')!;
  const stroke = { pointerId: 1, clientX: 10, clientY: 10, buttons: 1 };
  fireEvent.pointerDown(canvas, stroke);
  fireEvent.pointerMove(canvas, { ...stroke, clientX: 60, clientY: 30 });
  fireEvent.pointerUp(canvas, stroke);
}

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const contextStub = {
  arc: vi.fn(),
  fill: vi.fn(),
  beginPath: vi.fn(),
  moveTo: vi.fn(),
  lineTo: vi.fn(),
  stroke: vi.fn(),
  clearRect: vi.fn(),
  scale: vi.fn(),
  setTransform: vi.fn(),
  fillText: vi.fn(),
  drawImage: vi.fn(),
};
beforeEach(() => {
  // jsdom has no canvas: the pad draws on a stub and reads back a real 1×1 PNG.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => contextStub as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue(PNG);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('a consent signed on its own', () => {
  it('shows the whole text after the identity check, asks for a signature, and thanks the patient once signed', async () => {
    const calls = fakeConsentServer({ view: view() });
    renderPatient(`/patients/digitalconsentform/${TOKEN}`);
    const user = userEvent.setup();
    await verify(user);
    const consent = await screen.findByTestId('consent-shotConsent');
    expect(consent).toHaveTextContent('I agree to have the injection.');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Consent to sign');

    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please sign in the box before you tap Sign.');
    expect(calls.filter((call) => call.path.endsWith('/sign'))).toHaveLength(0);

    drawSignature();
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByTestId('consent-done')).toHaveTextContent('Riverside Spine & Pain has your signed consent.');
    const [signed] = calls.filter((call) => call.path.endsWith('/sign'));
    expect(signed!.body).toMatchObject({ kind: 'shotConsent', language: 'en', signature: { image: PNG } });
  });

  it('asks for the signature again when the server cannot read it', async () => {
    fakeConsentServer({
      view: view(),
      sign: [{ status: 400, body: { code: 'VALIDATION', fields: { signature: 'signatureInvalid' } } }],
    });
    renderPatient(`/patients/resignconsent/${TOKEN}`);
    const user = userEvent.setup();
    await verify(user);
    await screen.findByTestId('consent-shotConsent');
    drawSignature();
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not read your signature');
    expect(screen.queryByTestId('consent-done')).not.toBeInTheDocument();
  });

  it('reads in Spanish', async () => {
    fakeConsentServer({ view: view() });
    renderPatient(`/patients/digitalconsentform/${TOKEN}`);
    const user = userEvent.setup();
    await verify(user);
    await screen.findByTestId('consent-shotConsent');
    await user.click(screen.getByRole('button', { name: 'Español' }));
    expect(screen.getByRole('heading', { name: 'Consentimiento para inyección' })).toBeInTheDocument();
    expect(screen.getByTestId('consent-shotConsent')).toHaveTextContent('Mi proveedor me ha explicado la inyección.');
  });
});
