import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CloseAccountState } from '@pathwell/contracts/close-account';
import type { FormLanguage } from '@pathwell/contracts/forms';
import { closeAccountApi, isNetworkError, PatientApiError } from './api';

type View = { name: 'loading' | 'notFound' | 'problem' } | { name: 'state'; state: CloseAccountState['state'] };

type PageProps = {
  patientId: string;
  closeToken: string;
  onClinicName: (name: string) => void;
  onLanguage: (language: FormLanguage) => void;
};

/**
 * The page the close-account email opens (/patients/closeaccount/{patientId}/{token}, decision 0036):
 * what closing means, and one button to confirm. Holding the email is the proof; nothing about the
 * patient is shown.
 */
export function CloseAccountPage({ patientId, closeToken, onClinicName, onLanguage }: PageProps) {
  const { t } = useTranslation('patient');
  const [view, setView] = useState<View>({ name: 'loading' });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    setView({ name: 'loading' });
    try {
      const state = await closeAccountApi.state(patientId, closeToken);
      onClinicName(state.clinicName);
      onLanguage(state.language);
      setView({ name: 'state', state: state.state });
    } catch (failure) {
      if (failure instanceof PatientApiError && (failure.status === 404 || failure.status === 400)) {
        return setView({ name: 'notFound' });
      }
      setView({ name: 'problem' });
    }
  }, [closeToken, onClinicName, onLanguage, patientId]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (view.name !== 'loading') headingRef.current?.focus();
  }, [view]);

  const confirm = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const result = await closeAccountApi.confirm({ patientId, token: closeToken });
      setView({ name: 'state', state: result.state });
    } catch (failure) {
      setFailed(true);
      if (!isNetworkError(failure) && failure instanceof PatientApiError && failure.status === 404) setView({ name: 'notFound' });
    } finally {
      setBusy(false);
    }
  };

  if (view.name === 'loading') {
    return (
      <p className="pw-hint" role="status">
        {t('loading')}
      </p>
    );
  }
  const key = view.name === 'state' ? view.state : view.name;
  return (
    <section className="pw-card pw-message" data-testid={`close-account-${key}`} role={key === 'problem' ? 'alert' : undefined}>
      <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
        {t(`closeAccount.${key}.title`)}
      </h2>
      <p>{t(`closeAccount.${key}.body`)}</p>
      {key === 'ready' && (
        <>
          <ul className="pw-list">
            {(['messages', 'links', 'records', 'appointments'] as const).map((item) => (
              <li key={item}>{t(`closeAccount.means.${item}`)}</li>
            ))}
          </ul>
          {failed && (
            <p className="pw-error" role="alert">
              {t('problem.body')}
            </p>
          )}
          <div className="pw-nav">
            <button
              type="button"
              className="pw-button pw-button-primary"
              disabled={busy}
              aria-busy={busy || undefined}
              onClick={() => void confirm()}
            >
              {busy ? t('closeAccount.closing') : t('closeAccount.confirm')}
            </button>
          </div>
          <p className="pw-hint">{t('closeAccount.keepOpen')}</p>
        </>
      )}
      {key === 'problem' && (
        <button type="button" className="pw-button pw-button-primary" onClick={() => void load()}>
          {t('problem.retry')}
        </button>
      )}
    </section>
  );
}

type RequestProps = { token: string; accessToken: string; language: FormLanguage; onSessionEnded: () => void };

/** In the intake: "Close my account", which emails the confirmation link to the address on file. */
export function CloseAccountRequest({ token, accessToken, language, onSessionEnded }: RequestProps) {
  const { t } = useTranslation('patient');
  const [stage, setStage] = useState<'closed' | 'asking' | 'sent'>('closed');
  const [sentTo, setSentTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const sent = await closeAccountApi.request(token, accessToken, language);
      setSentTo(sent.sentTo);
      setStage('sent');
    } catch (failure) {
      if (failure instanceof PatientApiError) {
        if (failure.status === 401) return onSessionEnded();
        const messageKey = failure.body.messageKey;
        if (messageKey === 'noEmailOnFile' || messageKey === 'closeAccountTooMany') {
          return setProblem(t(`closeAccount.request.${messageKey}`));
        }
      }
      setProblem(t('problem.body'));
    } finally {
      setBusy(false);
    }
  };

  if (stage === 'closed') {
    return (
      <p className="pw-close-account">
        <button type="button" className="pw-button-link" onClick={() => setStage('asking')}>
          {t('closeAccount.request.open')}
        </button>
      </p>
    );
  }
  return (
    <section className="pw-card" data-testid="close-account-request" aria-labelledby="pw-close-account-title">
      <h3 id="pw-close-account-title" className="pw-section-title">
        {t('closeAccount.request.title')}
      </h3>
      {stage === 'sent' ? (
        <p role="status">{t('closeAccount.request.sent', { email: sentTo })}</p>
      ) : (
        <>
          <p>{t('closeAccount.request.body')}</p>
          {problem && (
            <p className="pw-error" role="alert">
              {problem}
            </p>
          )}
          <div className="pw-nav">
            <button type="button" className="pw-button" disabled={busy} aria-busy={busy || undefined} onClick={() => void send()}>
              {busy ? t('closeAccount.request.sending') : t('closeAccount.request.send')}
            </button>
            <button type="button" className="pw-button-link" onClick={() => setStage('closed')}>
              {t('closeAccount.request.cancel')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
