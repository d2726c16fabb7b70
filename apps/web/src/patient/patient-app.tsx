import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormLanguage } from '@pathwell/contracts/forms';
import { LINK_LOCK_MINUTES, type LinkForm, type LinkStatus, type LinkStatusResponse } from '@pathwell/contracts/patient-links';
import type { IntakeView } from '@pathwell/contracts/intake';
import type { ConsentLinkView } from '@pathwell/contracts/consent-links';
import { consentApi, intakeApi, isNetworkError, PatientApiError, patientApi } from './api';
import { patientI18n } from './i18n';
import { CloseAccountPage, ConsentLink, IntakeFlow, loadIntakeFlow, PainJournalPage, SelfCheckIn } from './lazy-pages';
import { AccessRequestForm } from './lazy-parts';
import { CrisisResources } from './crisis-resources';
import { IdentityStep } from './identity-step';
import { Questionnaire } from './questionnaire';
import { parsePatientPath } from './routes';
import { linkStorage } from './storage';
import { localized } from './text';

type GoneStatus = Exclude<LinkStatus, 'active'>;
type Phase =
  | { name: 'loading' }
  | { name: 'notFound' }
  | { name: 'problem'; retry: () => void }
  | { name: 'gone'; status: GoneStatus }
  /** The clinic cannot give this form (its licensed wording is not loaded, decision 0061). */
  | { name: 'unavailable' }
  | { name: 'identity'; notice: string | null }
  | { name: 'form'; accessToken: string; linkForm: LinkForm; focus: boolean }
  | { name: 'intake'; accessToken: string; view: IntakeView }
  | { name: 'consent'; accessToken: string; view: ConsentLinkView }
  | { name: 'thanks'; crisisResources: boolean };

type Props = {
  pathname: string;
  /** Waits between automatic submit retries after a network failure. */
  retryDelaysMs?: number[];
};

const DEFAULT_RETRY_DELAYS_MS = [1000, 3000, 6000];

/**
 * The patient's questionnaire page: link status, identity check, the form one question at a time,
 * review, submit, thanks. Reached from a link; no staff session, no router.
 */
export function PatientApp({ pathname, retryDelaysMs = DEFAULT_RETRY_DELAYS_MS }: Props) {
  const { t } = useTranslation('patient');
  const [route] = useState(() => parsePatientPath(pathname));
  const token = route?.token ?? '';
  const isIntake = route?.kind === 'intake';
  const isConsent = route?.kind === 'consent';
  /** Pages that are not reached through a link's identity check. */
  const standalone = route?.kind === 'selfCheckIn' || route?.kind === 'closeAccount' || route?.kind === 'painJournal';
  const isLinkPage = route !== null && route.kind !== 'page' && !standalone;
  const [phase, setPhase] = useState<Phase>(isLinkPage ? { name: 'loading' } : { name: 'notFound' });
  const [standaloneClinic, setStandaloneClinic] = useState('');
  const [status, setStatus] = useState<LinkStatusResponse | null>(null);
  const [language, setLanguage] = useState<FormLanguage>(patientI18n.language === 'es' ? 'es' : 'en');
  const mainRef = useRef<HTMLElement>(null);

  const chooseLanguage = useCallback((next: FormLanguage) => {
    setLanguage(next);
    void patientI18n.changeLanguage(next);
  }, []);

  const gone = useCallback(
    (goneStatus: GoneStatus) => {
      if (goneStatus !== 'locked') linkStorage.clear(token);
      setPhase({ name: 'gone', status: goneStatus });
    },
    [token],
  );

  const loadForm = useCallback(
    async (accessToken: string, focus: boolean) => {
      setPhase({ name: 'loading' });
      try {
        if (isIntake) {
          const view = await intakeApi.view(token, accessToken);
          return setPhase({ name: 'intake', accessToken, view });
        }
        if (isConsent) {
          const view = await consentApi.view(token, accessToken);
          return setPhase({ name: 'consent', accessToken, view });
        }
        const linkForm = await patientApi.form(token, accessToken);
        const resumeLanguage = linkStorage.draft(token)?.language ?? linkForm.draft?.language;
        if (resumeLanguage && linkForm.form.languages.includes(resumeLanguage)) chooseLanguage(resumeLanguage);
        setPhase({ name: 'form', accessToken, linkForm, focus });
      } catch (failure) {
        if (failure instanceof PatientApiError) {
          const goneStatus = failure.goneStatus;
          if (goneStatus) return gone(goneStatus);
          linkStorage.setAccessToken(token, null);
          return setPhase({ name: 'identity', notice: null });
        }
        setPhase({ name: 'problem', retry: () => void loadForm(accessToken, focus) });
      }
    },
    [chooseLanguage, gone, isConsent, isIntake, token],
  );

  const loadStatus = useCallback(async () => {
    setPhase({ name: 'loading' });
    try {
      const linkStatus = await patientApi.status(token);
      setStatus(linkStatus);
      // The patient's language for the page even when the form lacks it: the form then shows in
      // English with a notice, in the patient's language, saying why.
      if (!linkStorage.draft(token)) chooseLanguage(linkStatus.suggestedLanguage);
      const accessToken = linkStorage.accessToken(token);
      // A finished intake or consent can be read again on the device that finished it.
      if ((isIntake || isConsent) && linkStatus.status === 'completed' && accessToken) {
        return void (await loadForm(accessToken, false));
      }
      if (linkStatus.status !== 'active') return gone(linkStatus.status);
      // Nothing to answer and nothing to confirm: the neutral labels are never shown.
      if (linkStatus.formUnavailable) return setPhase({ name: 'unavailable' });
      if (accessToken) return void (await loadForm(accessToken, false));
      setPhase({ name: 'identity', notice: null });
    } catch (failure) {
      if (failure instanceof PatientApiError) {
        const goneStatus = failure.goneStatus;
        if (goneStatus) return gone(goneStatus);
        if (failure.status === 404 || failure.status === 400) return setPhase({ name: 'notFound' });
      }
      if (isNetworkError(failure) || failure instanceof PatientApiError) {
        setPhase({ name: 'problem', retry: () => void loadStatus() });
      }
    }
  }, [chooseLanguage, gone, isConsent, isIntake, loadForm, token]);

  useEffect(() => {
    // The intake steps load while the patient answers the identity check, not before the page shows.
    if (isIntake) void loadIntakeFlow();
  }, [isIntake]);

  useEffect(() => {
    if (isLinkPage) void loadStatus();
    // The link is read once per page load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Pages other than the questionnaire move focus to their heading themselves.
  useEffect(() => {
    if (phase.name === 'gone' || phase.name === 'thanks' || phase.name === 'notFound' || phase.name === 'unavailable') {
      mainRef.current?.querySelector<HTMLElement>('h2')?.focus();
    }
  }, [phase.name]);

  const form = phase.name === 'form' ? phase.linkForm.form : null;
  const title = form ? localized(form.title, language) : status ? localized(status.formTitle, language) : t('pageTitle');
  const clinicName =
    phase.name === 'form'
      ? phase.linkForm.clinicName
      : phase.name === 'intake' || phase.name === 'consent'
        ? phase.view.clinicName
        : (status?.clinicName ?? standaloneClinic);
  const formLanguages = form?.languages ?? status?.languages ?? ['en', 'es'];
  const englishOnly = language === 'es' && !formLanguages.includes('es');
  const showFormParts = phase.name === 'identity' || phase.name === 'form' || phase.name === 'loading';
  const pageTitle =
    route?.kind === 'page'
      ? t(`intakePages.${route.page}.heading`)
      : route?.kind === 'selfCheckIn'
        ? t('selfCheckIn.heading')
        : route?.kind === 'closeAccount'
          ? t('closeAccount.heading')
          : route?.kind === 'painJournal'
            ? t('painJournal.heading')
            : title;

  useEffect(() => {
    document.title = clinicName ? `${title} · ${clinicName}` : title;
  }, [title, clinicName]);

  return (
    <div className="pw-page">
      <header className="pw-header">
        <div className="pw-header-row">
          <p className="pw-clinic">{clinicName}</p>
          <div className="pw-language" role="group" aria-label={t('language.label')}>
            {(['en', 'es'] as const).map((code) => (
              <button
                key={code}
                type="button"
                lang={code}
                className="pw-language-button"
                aria-pressed={language === code}
                onClick={() => chooseLanguage(code)}
              >
                {t(`language.${code}`)}
              </button>
            ))}
          </div>
        </div>
        {(phase.name !== 'notFound' || route?.kind === 'page' || standalone) && <h1 className="pw-title">{pageTitle}</h1>}
      </header>

      <main className="pw-main" ref={mainRef}>
        <Suspense
          fallback={
            <p className="pw-hint" role="status">
              {t('loading')}
            </p>
          }
        >
          {englishOnly && showFormParts && (
            <p className="pw-notice" data-testid="language-notice">
              {form?.languageNotice ? localized(form.languageNotice, 'es') : t('form.englishOnly')}
            </p>
          )}
          {phase.name === 'form' && phase.linkForm.patientFirstName && (
            <p className="pw-greeting">{t('form.greeting', { name: phase.linkForm.patientFirstName })}</p>
          )}
          {phase.name === 'loading' && (
            <p className="pw-hint" role="status">
              {t('loading')}
            </p>
          )}
          {phase.name === 'notFound' && route?.kind === 'page' && (
            <Message
              testId={route.page}
              title={t(`intakePages.${route.page}.title`)}
              body={t(`intakePages.${route.page}.body`)}
            />
          )}
          {route?.kind === 'selfCheckIn' && (
            <SelfCheckIn patientId={route.patientId} appointmentId={route.appointmentId} onClinicName={setStandaloneClinic} />
          )}
          {route?.kind === 'closeAccount' && (
            <CloseAccountPage
              patientId={route.patientId}
              closeToken={route.closeToken}
              onClinicName={setStandaloneClinic}
              onLanguage={chooseLanguage}
            />
          )}
          {route?.kind === 'painJournal' && (
            <PainJournalPage
              journalToken={route.journalToken}
              retryDelaysMs={retryDelaysMs}
              onClinicName={setStandaloneClinic}
              onLanguage={chooseLanguage}
              language={language}
            />
          )}
          {phase.name === 'notFound' && route?.kind !== 'page' && !standalone && (
            <Message title={t('notFound.title')} body={t('notFound.body')} />
          )}
          {phase.name === 'problem' && (
            <div className="pw-card" role="alert">
              <h2 className="pw-question-title">{t('problem.title')}</h2>
              <p>{t('problem.body')}</p>
              <button type="button" className="pw-button pw-button-primary" onClick={phase.retry}>
                {t('problem.retry')}
              </button>
            </div>
          )}
          {phase.name === 'unavailable' && (
            <Message
              testId="form-unavailable"
              title={t('unavailable.title')}
              body={t('unavailable.body', { clinic: status?.clinicName ?? '' })}
            />
          )}
          {phase.name === 'gone' && phase.status === 'locked' && token && <LockedLink token={token} />}
          {phase.name === 'gone' && (phase.status !== 'locked' || !token) && (
            <Message
              testId={`gone-${phase.status}`}
              title={t(`gone.${phase.status}.title`)}
              body={t(`gone.${phase.status}.body`, { minutes: LINK_LOCK_MINUTES })}
            />
          )}
          {phase.name === 'identity' && (
            <IdentityStep
              token={token}
              notice={phase.notice}
              onGone={gone}
              onVerified={(accessToken) => {
                linkStorage.setAccessToken(token, accessToken);
                void loadForm(accessToken, true);
              }}
            />
          )}
          {phase.name === 'form' && (
            <Questionnaire
              token={token}
              accessToken={phase.accessToken}
              linkForm={phase.linkForm}
              language={language}
              retryDelaysMs={retryDelaysMs}
              focusOnMount={phase.focus}
              onGone={gone}
              onSessionEnded={() => {
                linkStorage.setAccessToken(token, null);
                setPhase({ name: 'identity', notice: t('form.sessionEnded') });
              }}
              onSubmitted={({ crisisResources }) => {
                linkStorage.clear(token);
                setPhase({ name: 'thanks', crisisResources });
              }}
            />
          )}
          {phase.name === 'intake' && (
            <IntakeFlow
              token={token}
              accessToken={phase.accessToken}
              initial={phase.view}
              language={language}
              retryDelaysMs={retryDelaysMs}
              onGone={gone}
              onSessionEnded={() => {
                linkStorage.setAccessToken(token, null);
                setPhase({ name: 'identity', notice: t('form.sessionEnded') });
              }}
            />
          )}
          {phase.name === 'consent' && (
            <ConsentLink
              token={token}
              accessToken={phase.accessToken}
              initial={phase.view}
              language={language}
              onGone={gone}
              onSessionEnded={() => {
                linkStorage.setAccessToken(token, null);
                setPhase({ name: 'identity', notice: t('form.sessionEnded') });
              }}
            />
          )}
          {phase.name === 'thanks' && phase.crisisResources && <CrisisResources />}
          {phase.name === 'thanks' && (
            <Message testId="thanks" title={t('thanks.title')} body={t('thanks.body', { clinic: clinicName })} />
          )}
        </Suspense>
      </main>

      <footer className="pw-footer">
        {form?.credit && (
          <p className="pw-credit">{localized(form.credit, form.languages.includes(language) ? language : 'en')}</p>
        )}
        <p>{t('footer.privacy')}</p>
        {/* The bundle does not know the clinic's id, so these open the standard texts (decision 0033). */}
        <p>
          <a href={`/termsandconditions?lang=${language}`} target="_blank" rel="noopener noreferrer">
            {t('footer.terms')}
          </a>
          {' · '}
          <a href={`/privacypolicy?lang=${language}`} target="_blank" rel="noopener noreferrer">
            {t('footer.privacyPolicy')}
          </a>
        </p>
      </footer>
    </div>
  );
}

/** A link locked by wrong answers: wait, or ask the clinic for access (issue #12). */
function LockedLink({ token }: { token: string }) {
  const { t } = useTranslation('patient');
  const [asking, setAsking] = useState(false);
  if (asking) return <AccessRequestForm token={token} onBack={() => setAsking(false)} />;
  return (
    <section className="pw-card pw-message" data-testid="gone-locked">
      <h2 className="pw-question-title" tabIndex={-1}>
        {t('gone.locked.title')}
      </h2>
      <p>{t('gone.locked.body', { minutes: LINK_LOCK_MINUTES })}</p>
      <p>
        <button type="button" className="pw-button-link" onClick={() => setAsking(true)}>
          {t('identity.request.ask')}
        </button>
      </p>
    </section>
  );
}

function Message({ title, body, testId }: { title: string; body: string; testId?: string }) {
  return (
    <section className="pw-card pw-message" data-testid={testId}>
      <h2 className="pw-question-title" tabIndex={-1}>
        {title}
      </h2>
      <p>{body}</p>
    </section>
  );
}
