import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IntakeView } from '@pathwell/contracts/intake';
import { patientI18n } from './i18n';
import { IntakeFlow } from './intake-flow';
import { sampleForm, TOKEN } from './test-helpers';

/** The clinic settings that shape the flow's pages (issue #12 §1), each seen on and off. */
type Options = IntakeView['options'];
const baseOptions: Options = {
  welcomeScreen: false,
  hideExitPro: false,
  checkinConfirmation: false,
  pharmacyRequired: false,
  contactOptIn: false,
  ask: { sexualOrientation: false, sexAssignedAtBirth: false, pronouns: false, communicationPreferences: false },
};

function viewWith(steps: IntakeView['steps'], options: Partial<Options>, extra: Partial<IntakeView> = {}): IntakeView {
  return {
    patientFirstName: 'Ana',
    clinicName: 'Riverside Spine & Pain',
    appointment: {
      id: '6b2f7c1e-2a4d-4b8e-9f00-1234567890ab',
      startsAt: '2030-01-08T04:00:00.000Z',
      startsAtText: '01/07/2030 10:00 PM',
      doctorName: 'Daniela Ortiz',
      newPatient: true,
    },
    steps,
    ownDone: [],
    forms: [],
    saved: { paperwork: null, history: null, vas: null, bodymap: null, payment: null },
    previousBodyMap: null,
    agreement: {
      title: { en: 'New patient agreement', es: 'Acuerdo para pacientes nuevos' },
      text: { en: 'I agree.', es: 'Acepto.' },
      version: 'sha256:0000000000000000',
      fileUrl: null,
    },
    options: { ...baseOptions, ...options },
    amountDueCents: null,
    contactChoice: null,
    completedAt: null,
    checkIn: { offered: false, checkedIn: false, fromHome: false },
    insuranceCards: [],
    ...extra,
  };
}

function serve(view: IntakeView) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (method === 'GET' && input.includes('/forms/')) {
        return new Response(
          JSON.stringify({ patientFirstName: 'Ana', clinicName: 'Riverside Spine & Pain', form: sampleForm, draft: null }),
          { status: 200 },
        );
      }
      if (method === 'GET') return new Response(JSON.stringify(view), { status: 200 });
      return new Response(JSON.stringify({ done: false, completed: false }), { status: 200 });
    }),
  );
}

function renderFlow(view: IntakeView) {
  serve(view);
  return render(
    <I18nextProvider i18n={patientI18n}>
      <IntakeFlow
        token={TOKEN}
        accessToken="access"
        initial={view}
        language="en"
        retryDelaysMs={[0]}
        onGone={vi.fn()}
        onSessionEnded={vi.fn()}
      />
    </I18nextProvider>,
  );
}

beforeEach(() => {
  sessionStorage.clear();
  void patientI18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('settings that shape the intake pages', () => {
  const paperwork = [{ step: 1 as const, done: false }];

  it('pharmacy is required only with isPharmacyRequired', async () => {
    const { unmount } = renderFlow(viewWith(paperwork, { pharmacyRequired: true }));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByLabelText('Pharmacy name (required)')).toHaveAttribute('aria-required', 'true');
    unmount();
    renderFlow(viewWith(paperwork, {}));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByLabelText('Pharmacy name')).not.toHaveAttribute('aria-required');
  });

  it('text fields stop at the contract limit, and a refused save takes the patient to the first error', async () => {
    renderFlow(viewWith(paperwork, {}));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    const city = await screen.findByLabelText(/^City/);
    // The paperwork contract's limits (packages/contracts/src/intake.ts), not a 5,000-character field.
    expect(city).toHaveAttribute('maxlength', '100');
    expect(screen.getByLabelText(/^Pharmacy name/)).toHaveAttribute('maxlength', '120');
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('maxlength', '254');
    // The server refuses the step: the street address and the city are missing.
    const served = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) =>
        init?.method === 'PUT' && JSON.parse(String(init.body)).final
          ? new Response(JSON.stringify({ code: 'VALIDATION', fields: { streetAddress1: 'required', city: 'required' } }), {
              status: 400,
            })
          : served(input, init),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(screen.getByLabelText(/^Street address/)).toHaveFocus());
    expect(screen.getByLabelText(/^Street address/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks the extended patient questions the clinic chose, and no others', async () => {
    const { unmount } = renderFlow(viewWith(paperwork, {}));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start' }));
    await screen.findByLabelText(/^Pharmacy name/);
    expect(screen.queryByText('Sexual orientation')).not.toBeInTheDocument();
    expect(screen.queryByText('Pronouns')).not.toBeInTheDocument();
    unmount();
    renderFlow(
      viewWith(paperwork, {
        ask: { sexualOrientation: true, sexAssignedAtBirth: false, pronouns: true, communicationPreferences: false },
      }),
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start' }));
    await screen.findByLabelText(/^Pharmacy name/);
    expect(screen.getAllByText(/^Sexual orientation/).length).toBeGreaterThan(0);
    expect(screen.getAllByText(/^Pronouns/).length).toBeGreaterThan(0);
    expect(screen.queryByText('Sex assigned at birth')).not.toBeInTheDocument();
  });

  it('offers to leave the questionnaires unless hideExitPro is on', async () => {
    const pro = viewWith(
      [{ step: 6, done: false }],
      {},
      {
        forms: [{ key: 'pro-11', step: 6, title: { en: 'PHQ-9', es: 'PHQ-9' }, done: false }],
      },
    );
    const { unmount } = renderFlow(pro);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByRole('button', { name: 'Leave the questionnaires for now' })).toBeInTheDocument();
    unmount();
    renderFlow({ ...pro, options: { ...pro.options, hideExitPro: true } });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start' }));
    await screen.findByRole('heading', { name: 'Health check' });
    expect(screen.queryByRole('button', { name: 'Leave the questionnaires for now' })).not.toBeInTheDocument();
  });
});
