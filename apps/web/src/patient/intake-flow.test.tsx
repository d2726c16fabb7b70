import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IntakeView } from '@pathwell/contracts/intake';
import { patientI18n } from './i18n';
import { IntakeFlow } from './intake-flow';
import { STEP_DRAFT_DEBOUNCE_MS } from './intake-draft';
import { TOKEN } from './test-helpers';

const ACCESS = 'access-token';

function viewOf(overrides: Partial<IntakeView> = {}): IntakeView {
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
    steps: [
      { step: 4, done: false },
      { step: 5, done: false },
    ],
    ownDone: [],
    forms: [],
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
    completedAt: null,
    checkIn: { offered: false, checkedIn: false, fromHome: false },
    insuranceCards: [],
    ...overrides,
  };
}

type Call = { method: string; path: string; body: unknown };

function fakeServer(answers: ((call: Call) => { status: number; body?: unknown } | undefined)[], view?: IntakeView) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const call = { method: init?.method ?? 'GET', path: input, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      for (const answer of answers) {
        const result = answer(call);
        if (result)
          return new Response(result.body === undefined ? null : JSON.stringify(result.body), { status: result.status });
      }
      if (view && call.method === 'GET') return new Response(JSON.stringify(view), { status: 200 });
      return new Response(JSON.stringify({ error: 'not faked' }), { status: 500 });
    }),
  );
  return calls;
}

const renderFlow = (view: IntakeView, language: 'en' | 'es' = 'en') => {
  void patientI18n.changeLanguage(language);
  return render(
    <I18nextProvider i18n={patientI18n}>
      <IntakeFlow
        token={TOKEN}
        accessToken={ACCESS}
        initial={view}
        language={language}
        retryDelaysMs={[0]}
        onGone={vi.fn()}
        onSessionEnded={vi.fn()}
      />
    </I18nextProvider>,
  );
};

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the intake flow', () => {
  it('opens on the welcome screen when the clinic has one, then asks how the clinic may contact the patient', async () => {
    const base = viewOf();
    const view = viewOf({ options: { ...base.options, welcomeScreen: true, contactOptIn: true } });
    const calls = fakeServer(
      [
        (call) =>
          call.method === 'PUT' && call.path.endsWith('/contact')
            ? { status: 200, body: { done: true, completed: false } }
            : undefined,
      ],
      view,
    );
    renderFlow(view);
    expect(screen.getByRole('heading', { name: 'Welcome to Riverside Spine & Pain' })).toBeInTheDocument();
    expect(screen.getByTestId('intake-welcome')).toHaveTextContent('Where you feel pain');
    fireEvent.click(screen.getByRole('button', { name: "Let's begin" }));
    // What each choice means: care messages come anyway, the boxes are for optional ones (issue #24 §5).
    expect(screen.getByTestId('opt-in-care')).toHaveTextContent('whatever you choose below');
    expect(screen.getByTestId('intake-opt-in')).toHaveTextContent('stops only the optional messages');
    const email = screen.getByRole('checkbox', { name: 'Optional messages by email' });
    const text = screen.getByRole('checkbox', { name: /Optional messages by text/ });
    // Opt-in: nothing is chosen for the patient.
    expect(email).not.toBeChecked();
    expect(text).not.toBeChecked();
    fireEvent.click(email);
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await screen.findByTestId('intake-dashboard');
    expect(calls.find((call) => call.path.endsWith('/contact'))?.body).toEqual({
      choice: { email: true, text: false },
      language: 'en',
    });
  });

  it('skips the welcome once a step is done, and the opt-in page once it is answered or not asked', () => {
    const base = viewOf();
    const started = viewOf({
      steps: [
        { step: 4, done: true },
        { step: 5, done: false },
      ],
      ownDone: [4],
      options: { ...base.options, welcomeScreen: true, contactOptIn: true },
      contactChoice: { email: true, text: true },
    });
    fakeServer([], started);
    renderFlow(started);
    expect(screen.getByTestId('intake-dashboard')).toBeInTheDocument();
    expect(screen.queryByTestId('intake-welcome')).not.toBeInTheDocument();
    expect(screen.queryByTestId('intake-opt-in')).not.toBeInTheDocument();
  });

  it('the opt-in page reads in Spanish', () => {
    const base = viewOf();
    const view = viewOf({ options: { ...base.options, contactOptIn: true } });
    fakeServer([], view);
    renderFlow(view, 'es');
    expect(screen.getByRole('heading', { name: 'Mensajes opcionales de la clínica' })).toBeInTheDocument();
    expect(screen.getByTestId('opt-in-care')).toHaveTextContent('elija lo que elija abajo');
    expect(screen.getByText('Nunca usamos sus datos de contacto para publicidad ni marketing.')).toBeInTheDocument();
  });

  it('the opt-in page tells a patient whose number replied STOP that texts stay off until START', () => {
    const base = viewOf();
    const stopped = viewOf({ options: { ...base.options, contactOptIn: true }, textStopped: true });
    fakeServer([], stopped);
    const { unmount } = renderFlow(stopped);
    expect(screen.getByTestId('opt-in-stopped')).toHaveTextContent('reply START to any of our messages');
    unmount();
    const open = viewOf({ options: { ...base.options, contactOptIn: true }, textStopped: false });
    renderFlow(open);
    expect(screen.queryByTestId('opt-in-stopped')).not.toBeInTheDocument();
  });

  it('lists the steps with their state and starts at the first unfinished one', async () => {
    const view = viewOf({
      steps: [
        { step: 4, done: true },
        { step: 5, done: false },
      ],
      ownDone: [4],
    });
    fakeServer([], view);
    renderFlow(view);
    expect(screen.getByTestId('intake-dashboard')).toHaveTextContent('Pain scores');
    expect(screen.getByRole('button', { name: 'Review: Pain scores' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open: Where you feel pain' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue where I left off' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Where you feel pain' })).toBeInTheDocument());
  });

  it('pain scores start unanswered, an untouched step cannot be saved, and it finishes with the four the patient chose', async () => {
    const calls = fakeServer([
      (call) =>
        call.method === 'PUT' && call.path.endsWith('/vas')
          ? { status: 200, body: { done: Boolean((call.body as { final: boolean }).final), completed: false } }
          : undefined,
      (call) =>
        call.method === 'GET'
          ? {
              status: 200,
              // As it started until the step is finished; then step 4 is done.
              body: calls.some((earlier) => (earlier.body as { final?: boolean } | undefined)?.final)
                ? viewOf({
                    steps: [
                      { step: 4, done: true },
                      { step: 5, done: false },
                    ],
                    ownDone: [4],
                  })
                : viewOf(),
            }
          : undefined,
    ]);
    renderFlow(viewOf());
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    const now = await screen.findByRole('radiogroup', { name: 'Your pain right now' });
    // Nothing is chosen for the patient: no number, and the page says so.
    expect(within(now).getAllByRole('radio')).toHaveLength(11);
    for (const radio of screen.getAllByRole('radio')) expect(radio).not.toBeChecked();
    expect(screen.getAllByText('Not answered yet')).toHaveLength(4);

    // Issue #24 §1: "Save and continue" on an untouched step records nothing and stays.
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Some answers need attention');
    expect(screen.getAllByText('Choose a number from 0 (no pain) to 10')).toHaveLength(4);
    expect(calls.some((call) => call.method === 'PUT' && (call.body as { final: boolean }).final)).toBe(false);
    expect(within(now).getByRole('radio', { name: '0, no pain' })).toHaveFocus();
    expect(screen.getByRole('heading', { name: 'Pain scores' })).toBeInTheDocument();

    fireEvent.click(within(now).getByRole('radio', { name: '7' }));
    expect(within(now).getByRole('radio', { name: '7' })).toBeChecked();
    expect(screen.getByText('You chose 7 of 10')).toBeInTheDocument();
    // The answered question's problem goes at once; the three others keep theirs.
    expect(screen.getAllByText('Choose a number from 0 (no pain) to 10')).toHaveLength(3);
    await waitFor(
      () => expect(calls.some((call) => call.method === 'PUT' && !(call.body as { final: boolean }).final)).toBe(true),
      {
        timeout: STEP_DRAFT_DEBOUNCE_MS + 1000,
      },
    );
    expect(JSON.parse(sessionStorage.getItem(`intake.${TOKEN}.vas`) ?? '{}')).toMatchObject({ data: { current: 7 } });
    // Three still missing: still refused, and only those three are named.
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(screen.getAllByText('Choose a number from 0 (no pain) to 10')).toHaveLength(3));
    expect(
      within(screen.getByRole('radiogroup', { name: 'Your average pain in the last week' })).getByRole('radio', {
        name: '0, no pain',
      }),
    ).toHaveFocus();

    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: 'Your average pain in the last week' })).getByRole('radio', { name: '5' }),
    );
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: 'Your pain at its best in the last week' })).getByRole('radio', {
        name: '0, no pain',
      }),
    );
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: 'Your pain at its worst in the last week' })).getByRole('radio', {
        name: '10, worst possible pain',
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Where you feel pain' })).toBeInTheDocument());
    const final = calls.find((call) => call.method === 'PUT' && (call.body as { final: boolean }).final);
    expect(final?.body).toEqual({ final: true, language: 'en', data: { current: 7, average: 5, best: 0, worst: 10 } });
    // The device copy goes once the server has the finished step.
    expect(sessionStorage.getItem(`intake.${TOKEN}.vas`)).toBeNull();
  });

  it('the body map cannot be saved empty unless the patient says "no pain anywhere", and a tap records no level', async () => {
    const view = viewOf({ steps: [{ step: 5, done: false }] });
    const calls = fakeServer(
      [
        (call) =>
          call.method === 'PUT' && call.path.endsWith('/bodymap')
            ? { status: 200, body: { done: Boolean((call.body as { final: boolean }).final), completed: false } }
            : undefined,
      ],
      view,
    );
    renderFlow(view, 'es');
    fireEvent.click(screen.getByRole('button', { name: 'Empezar' }));
    await screen.findByRole('heading', { name: 'Dónde siente dolor' });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar y continuar' }));
    expect(await screen.findByText('Marque dónde le duele o marque «No tengo dolor en ninguna parte»')).toBeInTheDocument();
    // A tapped area without a chosen level is not an answer either.
    fireEvent.click(screen.getByRole('button', { name: 'Parte baja de la espalda' }));
    expect(screen.getByTestId('body-map-sheet')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar y continuar' }));
    expect(calls.some((call) => call.method === 'PUT' && (call.body as { final: boolean }).final)).toBe(false);

    fireEvent.click(screen.getByRole('checkbox', { name: 'No tengo dolor en ninguna parte' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar y continuar' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT' && (call.body as { final: boolean }).final)?.body).toEqual({
        final: true,
        language: 'es',
        data: { regions: {}, noPain: true },
      }),
    );
  });

  it('a device copy the server never got wins when the step opens again', async () => {
    sessionStorage.setItem(`intake.${TOKEN}.vas`, JSON.stringify({ data: { current: 9 }, unsynced: true }));
    const view = viewOf({ saved: { paperwork: null, history: null, vas: { current: 2 }, bodymap: null, payment: null } });
    fakeServer([], view);
    renderFlow(view);
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    const now = await screen.findByRole('radiogroup', { name: 'Your pain right now' });
    expect(within(now).getByRole('radio', { name: '9' })).toBeChecked();
  });

  it('field problems from the server are shown and keep the patient on the step', async () => {
    fakeServer(
      [
        (call) =>
          call.method === 'PUT' && (call.body as { final: boolean }).final
            ? { status: 400, body: { error: 'Some answers need attention', fields: { allergies: 'required' } } }
            : call.method === 'PUT'
              ? { status: 200, body: { done: false, completed: false } }
              : undefined,
      ],
      viewOf({ steps: [{ step: 2, done: false }] }),
    );
    renderFlow(viewOf({ steps: [{ step: 2, done: false }] }), 'es');
    fireEvent.click(screen.getByRole('button', { name: 'Empezar' }));
    await screen.findByRole('heading', { name: 'Historial de salud' });
    fireEvent.click(screen.getByLabelText('No tomo medicamentos'));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar y continuar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Algunas respuestas necesitan atención');
    expect(screen.getByRole('heading', { name: 'Historial de salud' })).toBeInTheDocument();
  });

  it('offers check-in on the day of the visit and shows the confirmation page when the clinic wants one', async () => {
    const calls = fakeServer([
      (call) => (call.path.endsWith('/checkin') ? { status: 200, body: { checkedIn: true, confirmationPage: true } } : undefined),
    ]);
    renderFlow(viewOf({ checkIn: { offered: true, checkedIn: false, fromHome: false } }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Check me in' }));
    });
    expect(await screen.findByTestId('checkin-complete')).toHaveTextContent('You are checked in');
    expect(window.location.pathname).toBe('/checkincomplete');
    expect(calls.filter((call) => call.path.endsWith('/checkin'))).toHaveLength(1);
  });

  it('checking in from home before finishing says the clinic knows they are coming and names the steps left, not "take a seat"', async () => {
    fakeServer([
      (call) => (call.path.endsWith('/checkin') ? { status: 200, body: { checkedIn: true, confirmationPage: true } } : undefined),
    ]);
    renderFlow(viewOf({ checkIn: { offered: true, checkedIn: false, fromHome: true } }));
    expect(screen.getByRole('button', { name: 'I am at the clinic: check me in' })).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Check in from home' }));
    });
    const page = await screen.findByTestId('checkin-complete');
    expect(page).toHaveTextContent('Riverside Spine & Pain knows you are coming');
    expect(page).not.toHaveTextContent(/take a seat/);
    expect(screen.getByTestId('checkin-steps-left')).toHaveTextContent('Still to do: Pain scores, Where you feel pain.');
    fireEvent.click(screen.getByRole('button', { name: 'Finish my forms' }));
    expect(await screen.findByTestId('intake-dashboard')).toBeInTheDocument();
  });

  it('at the clinic it says "take a seat"; a finished intake offers check-in with nothing left to do', async () => {
    fakeServer([
      (call) =>
        call.path.endsWith('/checkin') ? { status: 200, body: { checkedIn: true, confirmationPage: false } } : undefined,
    ]);
    renderFlow(
      viewOf({
        steps: [{ step: 4, done: true }],
        ownDone: [4],
        completedAt: '2030-01-07T20:00:00.000Z',
        checkIn: { offered: true, checkedIn: false, fromHome: false },
      }),
      'es',
    );
    expect(screen.getByTestId('checkin-offer')).toHaveTextContent('Cuando llegue a la clínica, registre su llegada aquí.');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Registrar mi llegada' }));
    });
    const done = await screen.findByTestId('checked-in');
    expect(done).toHaveTextContent('tome asiento');
    expect(screen.queryByTestId('checkin-steps-left')).toBeNull();
  });
});
