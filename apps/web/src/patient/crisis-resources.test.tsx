import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IntakeView } from '@pathwell/contracts/intake';
import { CrisisResources } from './crisis-resources';
import { patientI18n } from './i18n';
import { IntakeFlow } from './intake-flow';
import { fakePatientApi, renderPatient, RESPONSE_ID, sampleForm, TOKEN } from './test-helpers';

const renderAlone = (language: 'en' | 'es', onContinue?: () => void) => {
  void patientI18n.changeLanguage(language);
  return render(
    <I18nextProvider i18n={patientI18n}>
      <CrisisResources onContinue={onContinue} />
    </I18nextProvider>,
  );
};

afterEach(() => {
  vi.unstubAllGlobals();
  void patientI18n.changeLanguage('en');
});

describe('crisis resources', () => {
  it('offers the 988 Lifeline by call, text and chat, and 911 for immediate danger, in English', () => {
    renderAlone('en');
    expect(screen.getByRole('heading', { name: 'Help is available right now' })).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Call 988' })).toHaveAttribute('href', 'tel:988');
    expect(screen.getByRole('link', { name: 'Text 988' })).toHaveAttribute('href', 'sms:988');
    expect(screen.getByRole('link', { name: 'Chat at 988lifeline.org' })).toHaveAttribute('href', 'https://988lifeline.org');
    expect(screen.getByRole('link', { name: 'call 911.' })).toHaveAttribute('href', 'tel:911');
    expect(screen.getByTestId('crisis-resources')).toHaveTextContent('988 Suicide & Crisis Lifeline');
    expect(screen.getByTestId('crisis-resources')).toHaveTextContent('If you are in immediate danger, call 911.');
    // A form link ends here: no button to leave the resources.
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('in Spanish: "Llame o envíe un mensaje de texto al 988", Spanish by pressing 2 or texting AYUDA, and 911', async () => {
    const onContinue = vi.fn();
    renderAlone('es', onContinue);
    const panel = screen.getByTestId('crisis-resources');
    expect(screen.getByRole('heading', { name: 'Hay ayuda disponible ahora mismo' })).toBeInTheDocument();
    expect(panel).toHaveTextContent('Llame o envíe un mensaje de texto al 988');
    expect(panel).toHaveTextContent('marque 2');
    expect(panel).toHaveTextContent('envíe AYUDA por mensaje de texto al 988');
    expect(screen.getByRole('link', { name: 'Llamar al 988' })).toHaveAttribute('href', 'tel:988');
    expect(screen.getByRole('link', { name: 'Enviar un mensaje de texto al 988' })).toHaveAttribute('href', 'sms:988');
    expect(screen.getByRole('link', { name: 'llame al 911.' })).toHaveAttribute('href', 'tel:911');
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(onContinue).toHaveBeenCalledTimes(1);
  });
});

async function answerSampleForm() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Last name'), 'Lopez');
  await user.type(screen.getByLabelText('Date of birth'), '04271980');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByTestId('progress');
  await user.click(screen.getByRole('radio', { name: 'No' }));
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await user.click(screen.getByRole('radio', { name: 'Fair' }));
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

describe('after a form link is submitted', () => {
  it('shows the crisis resources first, focused, when the server says the answers are critical', async () => {
    fakePatientApi({ submit: [{ body: { message: 'ok', responseId: RESPONSE_ID, crisisResources: true } }] });
    renderPatient();
    await answerSampleForm();
    const panel = await screen.findByTestId('crisis-resources');
    expect(screen.getByTestId('thanks')).toBeInTheDocument();
    // The resources come before the thank-you, and take the focus.
    expect(panel.compareDocumentPosition(screen.getByTestId('thanks')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Help is available right now' })).toHaveFocus());
  });

  it('shows only the thank-you otherwise', async () => {
    fakePatientApi({ submit: [{ body: { message: 'ok', responseId: RESPONSE_ID, crisisResources: false } }] });
    renderPatient();
    await answerSampleForm();
    expect(await screen.findByTestId('thanks')).toBeInTheDocument();
    expect(screen.queryByTestId('crisis-resources')).not.toBeInTheDocument();
  });
});

describe('after an intake form is submitted', () => {
  const view = (done: boolean): IntakeView => ({
    patientFirstName: 'Ana',
    clinicName: 'Riverside Spine & Pain',
    appointment: {
      id: '6b2f7c1e-2a4d-4b8e-9f00-1234567890ab',
      startsAt: '2030-01-08T04:00:00.000Z',
      startsAtText: '01/07/2030 10:00 PM',
      doctorName: 'Daniela Ortiz',
      newPatient: false,
    },
    steps: [{ step: 6, done }],
    ownDone: [],
    forms: [{ key: 'pro-11', step: 6, title: { en: 'PHQ-9', es: 'PHQ-9' }, done }],
    saved: { paperwork: null, history: null, vas: null, bodymap: null, payment: null },
    previousBodyMap: null,
    agreement: null,
    options: {
      welcomeScreen: false,
      hideExitPro: false,
      checkinConfirmation: false,
      pharmacyRequired: false,
      contactOptIn: false,
      ask: { sexualOrientation: false, sexAssignedAtBirth: false, pronouns: false, communicationPreferences: false },
    },
    amountDueCents: null,
    contactChoice: null,
    completedAt: done ? '2030-01-07T10:00:00.000Z' : null,
    checkIn: { offered: false, checkedIn: false, fromHome: false },
    insuranceCards: [],
  });

  beforeEach(() => sessionStorage.clear());

  it('shows the crisis resources before going on, and goes on when the patient chooses', async () => {
    let submitted = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
        if (method === 'GET' && input.endsWith('/forms/pro-11'))
          return reply({ patientFirstName: 'Ana', clinicName: 'Riverside', form: sampleForm, draft: null });
        if (method === 'PUT' && input.endsWith('/forms/pro-11/draft')) return new Response(null, { status: 204 });
        if (method === 'POST' && input.endsWith('/forms/pro-11/submit')) {
          submitted = true;
          return reply({ message: 'ok', responseId: RESPONSE_ID, crisisResources: true }, 201);
        }
        if (method === 'GET' && input.endsWith(`/api/intake/${TOKEN}`)) return reply(view(submitted));
        return reply({ error: 'not faked' }, 500);
      }),
    );
    void patientI18n.changeLanguage('en');
    render(
      <I18nextProvider i18n={patientI18n}>
        <IntakeFlow
          token={TOKEN}
          accessToken="access"
          initial={view(false)}
          language="en"
          retryDelaysMs={[0]}
          onGone={vi.fn()}
          onSessionEnded={vi.fn()}
        />
      </I18nextProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await screen.findByTestId('progress');
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('radio', { name: 'Fair' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('crisis-resources')).toBeInTheDocument();
    expect(screen.queryByTestId('intake-complete')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('intake-complete')).toBeInTheDocument();
  });
});
