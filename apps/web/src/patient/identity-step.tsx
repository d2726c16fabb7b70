import { useId, useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LINK_LOCK_MINUTES, type LinkStatus } from '@pathwell/contracts/patient-links';
import { mdyDateProblem } from '@pathwell/contracts/validation';
import { formatDateOfBirth, normalizeDateOfBirth } from './date-of-birth';
import { AccessRequestForm } from './lazy-parts';
import { isNetworkError, PatientApiError, patientApi } from './api';
import { linkStorage } from './storage';

type Identity = { lastName: string; dateOfBirth: string };

/** A wrong answer says how many tries are left before the lock (the server counts them, decision 0059). */
function withAttemptsLeft(t: TFunction<['patient', 'validation']>, message: string, attemptsLeft: unknown): string {
  if (typeof attemptsLeft !== 'number') return message;
  return `${message} ${t('identity.attemptsLeft', { count: attemptsLeft, minutes: LINK_LOCK_MINUTES })}`;
}
type Props = {
  notice: string | null;
  onGone: (status: Exclude<LinkStatus, 'active'>) => void;
  /** A link's identity check: the access token goes to `onVerified`. */
  token?: string;
  onVerified?: (accessToken: string) => void;
  /** Another check on the same two answers (the self check-in QR page); the page's own title and intro. */
  check?: (identity: Identity) => Promise<void>;
  texts?: { title: string; intro: string; submit: string };
};

export function IdentityStep({ token = '', notice, onVerified, onGone, check, texts }: Props) {
  const { t } = useTranslation(['patient', 'validation']);
  const [lastName, setLastName] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [errors, setErrors] = useState<{ lastName?: string; dateOfBirth?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [mismatched, setMismatched] = useState(false);
  const [asking, setAsking] = useState(false);
  const lastNameRef = useRef<HTMLInputElement>(null);
  const dateRef = useRef<HTMLInputElement>(null);
  const ids = { lastName: useId(), date: useId(), dateHint: useId(), lastNameError: useId(), dateError: useId(), form: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const next: typeof errors = {};
    const date = normalizeDateOfBirth(dateOfBirth);
    if (!lastName.trim()) next.lastName = 'required';
    if (!date) next.dateOfBirth = 'required';
    else next.dateOfBirth = mdyDateProblem(date) ?? undefined;
    setErrors(next);
    if (next.lastName) return lastNameRef.current?.focus();
    if (next.dateOfBirth) return dateRef.current?.focus();
    setBusy(true);
    try {
      const identity = { lastName: lastName.trim(), dateOfBirth: date };
      if (check) return void (await check(identity));
      const verified = await patientApi.verify(token, identity);
      onVerified?.(verified.accessToken);
    } catch (failure) {
      setBusy(false);
      if (failure instanceof PatientApiError) {
        const gone = failure.goneStatus;
        if (gone) return onGone(gone);
        if (failure.status === 429) {
          // A link's lock has its own page (with the way to ask the clinic for access); the QR page says it here.
          if (!check) return onGone('locked');
          const minutes = Number(failure.body.params?.minutes ?? LINK_LOCK_MINUTES);
          return setFormError(t('selfCheckIn.lockedForm', { minutes }));
        }
        const fields = failure.body.fields;
        // A mismatch names no field (the server sends it on lastName): one message for the pair.
        const mismatch = !fields || Object.values(fields).includes('identityMismatch');
        if (failure.status === 400 && fields && !mismatch && (fields.lastName || fields.dateOfBirth)) {
          setErrors({ lastName: fields.lastName, dateOfBirth: fields.dateOfBirth });
          return;
        }
        setMismatched(true);
        return setFormError(withAttemptsLeft(t, t('validation:identityMismatch'), failure.body.params?.attemptsLeft));
      }
      setFormError(isNetworkError(failure) ? t('problem.body') : t('review.failed'));
    }
  };

  const describe = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(' ') || undefined;

  const askForCode = async () => {
    setFormError(null);
    setBusy(true);
    try {
      const sent = await patientApi.emailCode(token);
      setCodeSentTo(sent.sentTo);
    } catch (failure) {
      if (failure instanceof PatientApiError) {
        const gone = failure.goneStatus;
        if (gone) return onGone(gone);
        const key = failure.body.messageKey;
        if (key === 'noEmailOnFile' || key === 'codeTooSoon' || key === 'codeTooMany') {
          return setFormError(t(`identity.code.${key}`));
        }
      }
      setFormError(isNetworkError(failure) ? t('problem.body') : t('review.failed'));
    } finally {
      setBusy(false);
    }
  };

  if (asking && !check) return <AccessRequestForm token={token} onBack={() => setAsking(false)} />;

  if (codeSentTo !== null && onVerified) {
    return (
      <EmailCodeForm
        token={token}
        sentTo={codeSentTo}
        onVerified={onVerified}
        onGone={onGone}
        onResend={() => void askForCode()}
        onBack={() => {
          setCodeSentTo(null);
          setFormError(null);
        }}
        resendError={formError}
      />
    );
  }

  return (
    <form className="pw-card" noValidate onSubmit={(event) => void submit(event)} aria-labelledby={ids.form}>
      <h2 id={ids.form} className="pw-question-title">
        {texts?.title ?? t('identity.title')}
      </h2>
      {notice && (
        <p className="pw-notice" role="status">
          {notice}
        </p>
      )}
      <p>{texts?.intro ?? t('identity.intro')}</p>
      <div className="pw-field">
        <label htmlFor={ids.lastName}>{t('identity.lastName')}</label>
        <input
          ref={lastNameRef}
          id={ids.lastName}
          className="pw-input"
          type="text"
          autoComplete="family-name"
          autoCapitalize="words"
          maxLength={100}
          value={lastName}
          aria-required="true"
          aria-invalid={errors.lastName ? true : undefined}
          aria-describedby={describe(errors.lastName && ids.lastNameError)}
          onChange={(event) => setLastName(event.target.value)}
        />
        {errors.lastName && (
          <p className="pw-error" id={ids.lastNameError}>
            {t(`validation:${errors.lastName}`)}
          </p>
        )}
      </div>
      <div className="pw-field">
        <label htmlFor={ids.date}>{t('identity.dateOfBirth')}</label>
        <p className="pw-hint" id={ids.dateHint}>
          {t('identity.dateHint')}
        </p>
        <input
          ref={dateRef}
          id={ids.date}
          className="pw-input"
          type="text"
          inputMode="numeric"
          autoComplete="bday"
          placeholder="MM/DD/YYYY"
          maxLength={10}
          value={dateOfBirth}
          aria-required="true"
          aria-invalid={errors.dateOfBirth ? true : undefined}
          aria-describedby={describe(ids.dateHint, errors.dateOfBirth && ids.dateError)}
          onChange={(event) => setDateOfBirth(formatDateOfBirth(event.target.value))}
        />
        {errors.dateOfBirth && (
          <p className="pw-error" id={ids.dateError}>
            {t(`validation:${errors.dateOfBirth}`)}
          </p>
        )}
      </div>
      {formError && (
        <p className="pw-error" role="alert">
          {formError}
        </p>
      )}
      <div className="pw-nav">
        <button type="submit" className="pw-button pw-button-primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? t('identity.checking') : (texts?.submit ?? t('identity.continue'))}
        </button>
      </div>
      {!check && (
        <p>
          <button type="button" className="pw-button-link" disabled={busy} onClick={() => void askForCode()}>
            {t('identity.code.ask')}
          </button>
        </p>
      )}
      {!check && mismatched && (
        <p>
          <button type="button" className="pw-button-link" onClick={() => setAsking(true)}>
            {t('identity.request.ask')}
          </button>
        </p>
      )}
      {!check && (
        <p className="pw-identity-links">
          {/* The specification's sign-in page links: staff to their own sign-in, and Exit, which forgets this device's access. */}
          <a href="/signin">{t('identity.staffSignIn')}</a>
          {' · '}
          <a href="/exit" onClick={() => linkStorage.setAccessToken(token, null)}>
            {t('identity.exit')}
          </a>
        </p>
      )}
    </form>
  );
}

type CodeProps = {
  token: string;
  sentTo: string;
  onVerified: (accessToken: string) => void;
  onGone: (status: Exclude<LinkStatus, 'active'>) => void;
  onResend: () => void;
  onBack: () => void;
  resendError: string | null;
};

/** The 6-digit code emailed to the address on file (decision 0035), typed on a numeric keypad. */
function EmailCodeForm({ token, sentTo, onVerified, onGone, onResend, onBack, resendError }: CodeProps) {
  const { t } = useTranslation(['patient', 'validation']);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { code: useId(), hint: useId(), error: useId(), form: useId() };
  const inputRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = code.replace(/\D/g, '');
    if (typed.length !== 6) {
      setError(t('validation:codeInvalid'));
      return inputRef.current?.focus();
    }
    setBusy(true);
    setError(null);
    try {
      const verified = await patientApi.verifyCode(token, { code: typed });
      onVerified(verified.accessToken);
    } catch (failure) {
      setBusy(false);
      if (failure instanceof PatientApiError) {
        const gone = failure.goneStatus;
        if (gone) return onGone(gone);
        if (failure.status === 429) return onGone('locked');
        const key = failure.body.fields?.code ?? 'codeWrong';
        return setError(withAttemptsLeft(t, t(`validation:${key}`), failure.body.params?.attemptsLeft));
      }
      setError(isNetworkError(failure) ? t('problem.body') : t('validation:codeWrong'));
    }
  };

  return (
    <form className="pw-card" noValidate onSubmit={(event) => void submit(event)} aria-labelledby={ids.form}>
      <h2 id={ids.form} className="pw-question-title">
        {t('identity.code.title')}
      </h2>
      <p role="status">{t('identity.code.sent', { email: sentTo })}</p>
      <div className="pw-field">
        <label htmlFor={ids.code}>{t('identity.code.label')}</label>
        <p className="pw-hint" id={ids.hint}>
          {t('identity.code.hint')}
        </p>
        <input
          ref={inputRef}
          id={ids.code}
          className="pw-input"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={[ids.hint, error && ids.error].filter(Boolean).join(' ')}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
        />
        {error && (
          <p className="pw-error" id={ids.error} role="alert">
            {error}
          </p>
        )}
      </div>
      {resendError && (
        <p className="pw-error" role="alert">
          {resendError}
        </p>
      )}
      <div className="pw-nav">
        <button type="submit" className="pw-button pw-button-primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? t('identity.checking') : t('identity.continue')}
        </button>
      </div>
      <p>
        <button type="button" className="pw-button-link" onClick={onResend}>
          {t('identity.code.resend')}
        </button>{' '}
        <button type="button" className="pw-button-link" onClick={onBack}>
          {t('identity.code.back')}
        </button>
      </p>
    </form>
  );
}
