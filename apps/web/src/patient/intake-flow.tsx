import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactChoice, IntakeView, IntakeWorkStep } from '@pathwell/contracts/intake';
import type { LinkForm } from '@pathwell/contracts/patient-links';
import { intakeApi, PatientApiError } from './api';
import { CloseAccountRequest } from './lazy-parts';
import { BodyMapView } from './body-map';
import { CrisisResources } from './crisis-resources';
import { clearIntakeDrafts } from './intake-draft';
import { BodyMapStep, HistoryStep, PaperworkStep, PaymentStep, VasStep, type StepProps } from './intake-steps';
import { Questionnaire, type FormEndpoints } from './questionnaire';
import { localized } from './text';

type Gone = 'completed' | 'expired' | 'revoked' | 'locked';
type Screen =
  | { name: 'dashboard' }
  | { name: 'welcome' }
  | { name: 'optIn' }
  | { name: 'step'; step: IntakeWorkStep }
  | { name: 'form'; key: string; linkForm: LinkForm }
  | { name: 'review'; step: IntakeWorkStep }
  | { name: 'done' }
  /** Right after a form with a critical answer (decision 0058); continues after the form's step. */
  | { name: 'crisis'; after: IntakeWorkStep | undefined }
  | { name: 'checkedIn'; at: CheckInPlace };

/** Where the patient says they check in from: only at the clinic does the page say "take a seat". */
type CheckInPlace = 'clinic' | 'home';

interface Props {
  token: string;
  accessToken: string;
  initial: IntakeView;
  language: 'en' | 'es';
  retryDelaysMs: number[];
  onGone: (status: Gone) => void;
  onSessionEnded: () => void;
}

/** Steps whose own answers the patient gives; 3 and 6 are forms only. */
const ownStep: Partial<Record<IntakeWorkStep, (props: StepProps) => React.JSX.Element>> = {
  1: PaperworkStep,
  2: HistoryStep,
  4: VasStep,
  5: BodyMapStep,
  7: PaymentStep,
};

export const COMPLETE_PATH = '/patients/intakecomplete';

const needsContactChoice = (view: IntakeView) => view.options.contactOptIn && view.contactChoice === null && !view.completedAt;

/** The welcome screen before a fresh start (`welcomeScreenEnabled`), then the opt-in page, then the step list. */
function firstScreen(view: IntakeView): Screen {
  if (view.options.welcomeScreen && !view.completedAt && view.steps.every((state) => !state.done)) return { name: 'welcome' };
  if (needsContactChoice(view)) return { name: 'optIn' };
  return { name: 'dashboard' };
}
export const CHECKIN_COMPLETE_PATH = '/checkincomplete';

/**
 * The patient's intake (decision 0032): the appointment dashboard lists the steps with done / to do and
 * resumes at the first unfinished one; each step saves as the patient goes; the last one completes it.
 */
export function IntakeFlow({ token, accessToken, initial, language, retryDelaysMs, onGone, onSessionEnded }: Props) {
  const { t } = useTranslation('intake');
  const [view, setView] = useState(initial);
  const [screen, setScreen] = useState<Screen>(() => firstScreen(initial));
  const [problem, setProblem] = useState(false);
  const [checkingIn, setCheckingIn] = useState(false);
  const [checkInProblem, setCheckInProblem] = useState<string | null>(null);
  const [checkedInAt, setCheckedInAt] = useState<CheckInPlace | null>(null);

  const checkIn = async (at: CheckInPlace) => {
    setCheckingIn(true);
    setCheckInProblem(null);
    try {
      const result = await intakeApi.checkIn(token, accessToken);
      setView((current) => ({ ...current, checkIn: { ...current.checkIn, offered: false, checkedIn: result.checkedIn } }));
      setCheckedInAt(at);
      if (result.confirmationPage) {
        window.history.replaceState(null, '', CHECKIN_COMPLETE_PATH);
        setScreen({ name: 'checkedIn', at });
      }
    } catch (failure) {
      if (failure instanceof PatientApiError) {
        const gone = failure.goneStatus;
        if (gone) return onGone(gone);
        if (failure.status === 401) return onSessionEnded();
      }
      setCheckInProblem(t('checkin.failed'));
    } finally {
      setCheckingIn(false);
    }
  };
  const headingRef = useRef<HTMLHeadingElement>(null);

  const openForm = useCallback(
    async (key: string) => {
      try {
        const linkForm = await intakeApi.form(token, accessToken, key);
        setScreen({ name: 'form', key, linkForm });
      } catch (failure) {
        if (failure instanceof PatientApiError) {
          const gone = failure.goneStatus;
          if (gone) return onGone(gone);
          if (failure.status === 401) return onSessionEnded();
        }
        setProblem(true);
      }
    },
    [accessToken, onGone, onSessionEnded, token],
  );

  /** After a step or form: read the intake again and go on to what is left, in order. */
  const goOn = useCallback(
    async (after?: IntakeWorkStep) => {
      setProblem(false);
      let current = view;
      try {
        current = await intakeApi.view(token, accessToken);
        setView(current);
      } catch (failure) {
        if (failure instanceof PatientApiError) {
          const gone = failure.goneStatus;
          if (gone) return onGone(gone);
          if (failure.status === 401) return onSessionEnded();
        }
        setProblem(true);
        return;
      }
      if (current.completedAt) {
        clearIntakeDrafts(token);
        window.history.replaceState(null, '', COMPLETE_PATH);
        return setScreen({ name: 'done' });
      }
      const next = current.steps.find((state) => !state.done && (after === undefined || state.step >= after));
      const first = next ?? current.steps.find((state) => !state.done);
      if (!first) return setScreen({ name: 'dashboard' });
      await startStep(current, first.step);
    },
    // startStep is defined below and only reads stable values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [accessToken, onGone, onSessionEnded, token, view],
  );

  const startStep = async (current: IntakeView, step: IntakeWorkStep) => {
    if (current.steps.find((state) => state.step === step)?.done) return setScreen({ name: 'review', step });
    if (ownStep[step] && !current.ownDone.includes(step)) return setScreen({ name: 'step', step });
    const next = stepFormsLeft(current, step)[0];
    if (next) return openForm(next.key);
    setScreen({ name: 'review', step });
  };

  const focusKey = screen.name === 'step' ? `step-${screen.step}` : screen.name === 'form' ? `form-${screen.key}` : screen.name;
  useEffect(() => {
    headingRef.current?.focus();
  }, [focusKey]);

  const stepTitle = (step: IntakeWorkStep) => t(`steps.${step}`);
  const position = useMemo(() => {
    const step =
      screen.name === 'step' || screen.name === 'review'
        ? screen.step
        : screen.name === 'form'
          ? view.forms.find((form) => form.key === screen.key)?.step
          : null;
    if (!step) return null;
    return { index: view.steps.findIndex((state) => state.step === step) + 1, total: view.steps.length, step };
  }, [screen, view]);

  /** The steps not finished yet, named, so a patient who checks in early knows what is left. */
  const stepsLeft = view.completedAt ? [] : view.steps.filter((state) => !state.done).map((state) => stepTitle(state.step));
  const stepsLeftNote =
    stepsLeft.length > 0 ? (
      <p data-testid="checkin-steps-left">{t('checkin.stepsLeft', { count: stepsLeft.length, steps: stepsLeft.join(', ') })}</p>
    ) : null;

  if (screen.name === 'checkedIn') {
    return (
      <section className="pw-card pw-message" data-testid="checkin-complete">
        <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
          {t('checkin.completeTitle')}
        </h2>
        <p>{t(screen.at === 'clinic' ? 'checkin.completeBody' : 'checkin.completeHomeBody', { clinic: view.clinicName })}</p>
        {stepsLeftNote}
        {stepsLeftNote && (
          <div className="pw-nav">
            <button type="button" className="pw-button pw-button-primary" onClick={() => setScreen({ name: 'dashboard' })}>
              {t('checkin.finishForms')}
            </button>
          </div>
        )}
      </section>
    );
  }

  if (screen.name === 'crisis') {
    const after = screen.after;
    return <CrisisResources onContinue={() => void goOn(after)} />;
  }

  if (screen.name === 'done') {
    return (
      <section className="pw-card pw-message" data-testid="intake-complete">
        <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
          {t('complete.title')}
        </h2>
        <p>{t('complete.body', { clinic: view.clinicName })}</p>
      </section>
    );
  }

  const stepProps: Omit<StepProps, 'onFinished'> = { token, accessToken, view, language, onGone, onSessionEnded };

  if (screen.name === 'welcome') {
    return (
      <section className="pw-card" data-testid="intake-welcome">
        <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
          {t('welcome.title', { clinic: view.clinicName })}
        </h2>
        <p>{t('welcome.body', { name: view.patientFirstName })}</p>
        <ol className="pw-list">
          {view.steps.map((state) => (
            <li key={state.step}>{stepTitle(state.step)}</li>
          ))}
        </ol>
        <p className="pw-hint">{t('welcome.saved')}</p>
        <div className="pw-nav">
          <button
            type="button"
            className="pw-button pw-button-primary"
            onClick={() => setScreen(needsContactChoice(view) ? { name: 'optIn' } : { name: 'dashboard' })}
          >
            {t('welcome.start')}
          </button>
        </div>
      </section>
    );
  }

  if (screen.name === 'optIn') {
    return (
      <ContactOptIn
        token={token}
        accessToken={accessToken}
        language={language}
        headingRef={headingRef}
        textStopped={view.textStopped === true}
        onGone={onGone}
        onSessionEnded={onSessionEnded}
        onSaved={(choice) => {
          setView((current) => ({ ...current, contactChoice: choice }));
          setScreen({ name: 'dashboard' });
        }}
      />
    );
  }

  return (
    <div className="pw-intake">
      {problem && (
        <p className="pw-error" role="alert">
          {t('problem')}{' '}
          <button type="button" className="pw-button-link" onClick={() => void goOn()}>
            {t('retry')}
          </button>
        </p>
      )}
      {position && (
        <div className="pw-progress-block">
          <p className="pw-progress-text" aria-live="polite">
            {t('progress', { current: position.index, total: position.total })}
          </p>
          <button type="button" className="pw-button-link" onClick={() => setScreen({ name: 'dashboard' })}>
            {t('allSteps')}
          </button>
        </div>
      )}

      {screen.name === 'dashboard' && (
        <section data-testid="intake-dashboard">
          <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
            {t('dashboard.title', { name: view.patientFirstName })}
          </h2>
          <p>{t('dashboard.visit', { when: view.appointment.startsAtText, doctor: view.appointment.doctorName ?? '' })}</p>
          {view.checkIn.checkedIn ? (
            <div className="pw-notice" role="status" data-testid="checked-in">
              <p>
                {t(
                  checkedInAt === 'clinic' ? 'checkin.doneClinic' : checkedInAt === 'home' ? 'checkin.doneHome' : 'checkin.done',
                )}
              </p>
              {stepsLeftNote}
            </div>
          ) : view.checkIn.offered ? (
            <div className="pw-card" data-testid="checkin-offer">
              <p>{t(view.checkIn.fromHome ? 'checkin.offerHome' : 'checkin.offer')}</p>
              <div className="pw-nav">
                <button
                  type="button"
                  className="pw-button pw-button-primary"
                  disabled={checkingIn}
                  aria-busy={checkingIn || undefined}
                  onClick={() => void checkIn('clinic')}
                >
                  {view.checkIn.fromHome ? t('checkin.atClinic') : t('checkin.button')}
                </button>
                {view.checkIn.fromHome && (
                  <button
                    type="button"
                    className="pw-button"
                    disabled={checkingIn}
                    aria-busy={checkingIn || undefined}
                    onClick={() => void checkIn('home')}
                  >
                    {t('checkin.atHome')}
                  </button>
                )}
              </div>
              {checkInProblem && (
                <p className="pw-error" role="alert">
                  {checkInProblem}
                </p>
              )}
            </div>
          ) : null}
          <ol className="pw-steps">
            {view.steps.map((state) => (
              <li key={state.step} className="pw-step-item">
                <span className={state.done ? 'pw-step-done' : 'pw-step-todo'} aria-hidden="true">
                  {state.done ? '✓' : '○'}
                </span>
                <span className="pw-step-name">{stepTitle(state.step)}</span>
                <span className="pw-step-state">{state.done ? t('dashboard.done') : t('dashboard.todo')}</span>
                <button
                  type="button"
                  className="pw-button-link"
                  aria-label={`${state.done ? t('dashboard.review') : t('dashboard.open')}: ${stepTitle(state.step)}`}
                  onClick={() => void startStep(view, state.step)}
                >
                  {state.done ? t('dashboard.review') : t('dashboard.open')}
                </button>
              </li>
            ))}
          </ol>
          {view.completedAt ? (
            <p className="pw-notice">{t('dashboard.allDone')}</p>
          ) : (
            <div className="pw-nav">
              <button type="button" className="pw-button pw-button-primary" onClick={() => void goOn()}>
                {view.steps.some((state) => state.done) ? t('dashboard.continue') : t('dashboard.start')}
              </button>
            </div>
          )}
          <Suspense fallback={null}>
            <CloseAccountRequest token={token} accessToken={accessToken} language={language} onSessionEnded={onSessionEnded} />
          </Suspense>
        </section>
      )}

      {screen.name === 'step' && (
        <section>
          <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
            {stepTitle(screen.step)}
          </h2>
          {(() => {
            const Step = ownStep[screen.step];
            return Step ? <Step key={screen.step} {...stepProps} onFinished={() => void goOn(screen.step)} /> : null;
          })()}
        </section>
      )}

      {screen.name === 'form' && (
        <section>
          <h2 className="pw-question-title pw-form-title" tabIndex={-1} ref={headingRef}>
            {localized(screen.linkForm.form.title, language)}
          </h2>
          <Questionnaire
            key={screen.key}
            token={token}
            storageKey={`${token}.${screen.key}`}
            endpoints={formEndpoints(token, accessToken, screen.key)}
            accessToken={accessToken}
            linkForm={screen.linkForm}
            language={language}
            retryDelaysMs={retryDelaysMs}
            focusOnMount
            onGone={onGone}
            onSessionEnded={onSessionEnded}
            onSubmitted={({ crisisResources }) => {
              const after = view.forms.find((form) => form.key === screen.key)?.step;
              if (crisisResources) setScreen({ name: 'crisis', after });
              else void goOn(after);
            }}
          />
          {!view.options.hideExitPro && view.forms.find((form) => form.key === screen.key)?.step === 6 && (
            <p>
              <button type="button" className="pw-button-link" onClick={() => setScreen({ name: 'dashboard' })}>
                {t('exitPro')}
              </button>
            </p>
          )}
        </section>
      )}

      {screen.name === 'review' && (
        <section>
          <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
            {stepTitle(screen.step)}
          </h2>
          <StepSummary view={view} step={screen.step} language={language} />
          <div className="pw-nav">
            <button type="button" className="pw-button pw-button-secondary" onClick={() => setScreen({ name: 'dashboard' })}>
              {t('allSteps')}
            </button>
          </div>
        </section>
      )}
    </div>
  );
}

/**
 * May the clinic send optional messages (campaigns) by email and by text: both unchecked until the
 * patient chooses. Care messages (their forms, appointments) are not this page's choice: it says so
 * (issue #24 §5, decision 0065).
 */
function ContactOptIn({
  token,
  accessToken,
  language,
  headingRef,
  textStopped,
  onGone,
  onSessionEnded,
  onSaved,
}: {
  token: string;
  accessToken: string;
  language: 'en' | 'es';
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  /** The mobile number replied STOP: ticking texts cannot turn them back on (carrier rules). */
  textStopped: boolean;
  onGone: (status: Gone) => void;
  onSessionEnded: () => void;
  onSaved: (choice: ContactChoice) => void;
}) {
  const { t } = useTranslation('intake');
  const [choice, setChoice] = useState<ContactChoice>({ email: false, text: false });
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setFailed(false);
    try {
      await intakeApi.saveContact(token, accessToken, { choice, language });
      onSaved(choice);
    } catch (failure) {
      setSaving(false);
      if (failure instanceof PatientApiError) {
        const gone = failure.goneStatus;
        if (gone) return onGone(gone);
        if (failure.status === 401) return onSessionEnded();
      }
      setFailed(true);
    }
  };
  return (
    <form className="pw-card" data-testid="intake-opt-in" onSubmit={(event) => void save(event)}>
      <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
        {t('optIn.title')}
      </h2>
      <p data-testid="opt-in-care">{t('optIn.care')}</p>
      <p>{t('optIn.body')}</p>
      <fieldset className="pw-intake-section">
        <legend className="pw-section-title">{t('optIn.legend')}</legend>
        {(['email', 'text'] as const).map((channel) => (
          <label key={channel} className="pw-choice">
            <input
              type="checkbox"
              checked={choice[channel]}
              onChange={(event) => setChoice((current) => ({ ...current, [channel]: event.target.checked }))}
            />
            <span>{t(`optIn.${channel}`)}</span>
          </label>
        ))}
      </fieldset>
      <p className="pw-hint">{t('optIn.declined')}</p>
      {textStopped && (
        <p className="pw-notice" data-testid="opt-in-stopped">
          {t('optIn.stopped')}
        </p>
      )}
      <p className="pw-hint">{t('optIn.noMarketing')}</p>
      {failed && (
        <p className="pw-error" role="alert">
          {t('problem')}
        </p>
      )}
      <div className="pw-nav">
        <button type="submit" className="pw-button pw-button-primary" disabled={saving} aria-busy={saving || undefined}>
          {saving ? t('saving') : t('saveContinue')}
        </button>
      </div>
    </form>
  );
}

const formEndpointsCache = new Map<string, FormEndpoints>();
function formEndpoints(token: string, accessToken: string, key: string): FormEndpoints {
  const cacheKey = `${token}.${accessToken}.${key}`;
  let endpoints = formEndpointsCache.get(cacheKey);
  if (!endpoints) {
    endpoints = {
      saveDraft: (draft) => intakeApi.saveFormDraft(token, accessToken, key, draft),
      submit: (body) => intakeApi.submitForm(token, accessToken, key, body),
    };
    formEndpointsCache.set(cacheKey, endpoints);
  }
  return endpoints;
}

const formsOf = (view: IntakeView, step: IntakeWorkStep) => view.forms.filter((form) => form.step === step);
const stepFormsLeft = (view: IntakeView, step: IntakeWorkStep) => formsOf(view, step).filter((form) => !form.done);
/** What a finished step holds, read-only (a revisit after completion, or Review from the dashboard). */
function StepSummary({ view, step, language }: { view: IntakeView; step: IntakeWorkStep; language: 'en' | 'es' }) {
  const { t } = useTranslation('intake');
  const forms = formsOf(view, step);
  return (
    <div className="pw-card" data-testid={`summary-${step}`}>
      {step === 1 && view.saved.paperwork && (
        <dl className="pw-review-list">
          <dt>{t('paperwork.street')}</dt>
          <dd>
            {[
              view.saved.paperwork.streetAddress1,
              view.saved.paperwork.city,
              view.saved.paperwork.state,
              view.saved.paperwork.zip,
            ]
              .filter(Boolean)
              .join(', ')}
          </dd>
          <dt>{t('paperwork.mobile')}</dt>
          <dd>{view.saved.paperwork.phones?.map((phone) => phone.number).join(', ')}</dd>
          <dt>{t('paperwork.agreementSigned')}</dt>
          <dd>{view.saved.paperwork.agreementSignature ? '✓' : '—'}</dd>
        </dl>
      )}
      {step === 2 && view.saved.history && (
        <dl className="pw-review-list">
          <dt>{t('history.allergies')}</dt>
          <dd>
            {view.saved.history.noKnownAllergies
              ? t('history.noAllergies')
              : view.saved.history.allergies?.map((entry) => entry.name).join(', ')}
          </dd>
          <dt>{t('history.medications')}</dt>
          <dd>
            {view.saved.history.noMedications
              ? t('history.noMedications')
              : view.saved.history.medications?.map((entry) => entry.name).join(', ')}
          </dd>
        </dl>
      )}
      {step === 4 && view.saved.vas && (
        <dl className="pw-review-list">
          {(['current', 'average', 'best', 'worst'] as const).map((key) => (
            <div key={key}>
              <dt>{t(`vas.${key}`)}</dt>
              <dd>{view.saved.vas?.[key]}</dd>
            </div>
          ))}
        </dl>
      )}
      {step === 5 && view.saved.bodymap && <BodyMapView value={view.saved.bodymap} language={language} title={t('steps.5')} />}
      {step === 7 && <p>{t('payment.payAtDesk')}</p>}
      {forms.length > 0 && (
        <ul className="pw-list">
          {forms.map((form) => (
            <li key={form.key}>
              {localized(form.title, language)}: {form.done ? t('dashboard.done') : t('dashboard.todo')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
