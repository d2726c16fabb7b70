import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LINK_LOCK_MINUTES, type LinkStatus } from '@pathwell/contracts/patient-links';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { isNetworkError, PatientApiError, patientApi } from './api';

/** Digits typed on a numeric keypad become MM/DD/YYYY as they go (the keypad has no slash). */
export function formatDateOfBirth(input: string): string {
  if (/^\d{1,2}\/\d{1,2}\/\d{0,4}$/.test(input) || /^\d{1,2}\/\d{0,2}$/.test(input)) return input;
  const digits = input.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

/** 4/7/1980 is read as 04/07/1980. */
export function normalizeDateOfBirth(input: string): string {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(input.trim());
  return match ? `${match[1]!.padStart(2, '0')}/${match[2]!.padStart(2, '0')}/${match[3]}` : input.trim();
}

type Identity = { lastName: string; dateOfBirth: string };
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
    else if (!isValidMdyDate(date)) next.dateOfBirth = 'dateInvalid';
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
          const minutes = Number(failure.body.params?.minutes ?? LINK_LOCK_MINUTES);
          return setFormError(t(check ? 'selfCheckIn.lockedForm' : 'gone.locked.body', { minutes }));
        }
        const fields = failure.body.fields;
        // A mismatch names no field (the server sends it on lastName): one message for the pair.
        const mismatch = !fields || Object.values(fields).includes('identityMismatch');
        if (failure.status === 400 && fields && !mismatch && (fields.lastName || fields.dateOfBirth)) {
          setErrors({ lastName: fields.lastName, dateOfBirth: fields.dateOfBirth });
          return;
        }
        return setFormError(t('validation:identityMismatch'));
      }
      setFormError(isNetworkError(failure) ? t('problem.body') : t('review.failed'));
    }
  };

  const describe = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(' ') || undefined;

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
    </form>
  );
}
