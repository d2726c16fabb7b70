import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccessRequest } from '@pathwell/contracts/patient-links';
import { mdyDateProblem } from '@pathwell/contracts/validation';
import { isNetworkError, PatientApiError, patientApi } from './api';
import { formatDateOfBirth, normalizeDateOfBirth } from './date-of-birth';

type Field = 'name' | 'dateOfBirth' | 'contact' | 'message';
type Props = { token: string; onBack?: () => void };

/**
 * "Request portal access" (issue #12): the details on file did not match what the patient typed, so
 * they leave a name and a way to call back, and the clinic's staff get a notification.
 */
export function AccessRequestForm({ token, onBack }: Props) {
  const { t } = useTranslation(['patient', 'validation']);
  const [values, setValues] = useState<Record<Field, string>>({ name: '', dateOfBirth: '', contact: '', message: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const ids = {
    form: useId(),
    name: useId(),
    date: useId(),
    dateHint: useId(),
    contact: useId(),
    contactHint: useId(),
    message: useId(),
  };
  const refs = {
    name: useRef<HTMLInputElement>(null),
    dateOfBirth: useRef<HTMLInputElement>(null),
    contact: useRef<HTMLInputElement>(null),
  };

  const set = (field: Field, value: string) => setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const date = normalizeDateOfBirth(values.dateOfBirth);
    const next: Partial<Record<Field, string>> = {};
    if (!values.name.trim()) next.name = 'required';
    if (date) next.dateOfBirth = mdyDateProblem(date) ?? undefined;
    if (values.contact.trim().length < 3) next.contact = 'required';
    setErrors(next);
    const first = (['name', 'dateOfBirth', 'contact'] as const).find((field) => next[field]);
    if (first) return refs[first].current?.focus();
    setBusy(true);
    try {
      const body: AccessRequest = {
        name: values.name.trim(),
        contact: values.contact.trim(),
        ...(date ? { dateOfBirth: date } : {}),
        ...(values.message.trim() ? { message: values.message.trim() } : {}),
      };
      await patientApi.requestAccess(token, body);
      setSent(true);
    } catch (failure) {
      if (failure instanceof PatientApiError) {
        if (failure.status === 400 && failure.body.fields)
          return setErrors(failure.body.fields as Partial<Record<Field, string>>);
        if (failure.status === 429) return setFormError(t('identity.request.tooMany'));
        if (failure.goneStatus) return setFormError(t('identity.request.closed'));
      }
      setFormError(isNetworkError(failure) ? t('problem.body') : t('review.failed'));
    } finally {
      setBusy(false);
    }
  };

  if (sent) {
    return (
      <section className="pw-card pw-message" data-testid="access-request-sent">
        <h2 className="pw-question-title" tabIndex={-1}>
          {t('identity.request.sentTitle')}
        </h2>
        <p role="status">{t('identity.request.sentBody')}</p>
      </section>
    );
  }

  const field = (
    name: 'name' | 'dateOfBirth' | 'contact',
    id: string,
    input: React.InputHTMLAttributes<HTMLInputElement>,
    hintId?: string,
  ) => (
    <div className="pw-field">
      <label htmlFor={id}>{t(`identity.request.${name}`)}</label>
      {hintId && (
        <p className="pw-hint" id={hintId}>
          {t(`identity.request.${name}Hint`)}
        </p>
      )}
      <input
        ref={refs[name]}
        id={id}
        className="pw-input"
        type="text"
        value={values[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={[hintId, errors[name] && `${id}-error`].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {errors[name] && (
        <p className="pw-error" id={`${id}-error`}>
          {t(`validation:${errors[name]}`)}
        </p>
      )}
    </div>
  );

  return (
    <form className="pw-card" noValidate onSubmit={(event) => void submit(event)} aria-labelledby={ids.form}>
      <h2 id={ids.form} className="pw-question-title">
        {t('identity.request.title')}
      </h2>
      <p>{t('identity.request.intro')}</p>
      {field('name', ids.name, {
        autoComplete: 'name',
        maxLength: 120,
        'aria-required': true,
        onChange: (event) => set('name', event.target.value),
      })}
      {field(
        'dateOfBirth',
        ids.date,
        {
          inputMode: 'numeric',
          autoComplete: 'bday',
          placeholder: 'MM/DD/YYYY',
          maxLength: 10,
          onChange: (event) => set('dateOfBirth', formatDateOfBirth(event.target.value)),
        },
        ids.dateHint,
      )}
      {field(
        'contact',
        ids.contact,
        { autoComplete: 'tel', maxLength: 120, 'aria-required': true, onChange: (event) => set('contact', event.target.value) },
        ids.contactHint,
      )}
      <div className="pw-field">
        <label htmlFor={ids.message}>{t('identity.request.message')}</label>
        <textarea
          id={ids.message}
          className="pw-input"
          rows={3}
          maxLength={500}
          value={values.message}
          onChange={(event) => set('message', event.target.value)}
        />
      </div>
      {formError && (
        <p className="pw-error" role="alert">
          {formError}
        </p>
      )}
      <div className="pw-nav">
        <button type="submit" className="pw-button pw-button-primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? t('identity.request.sending') : t('identity.request.send')}
        </button>
      </div>
      {onBack && (
        <p>
          <button type="button" className="pw-button-link" onClick={onBack}>
            {t('identity.request.back')}
          </button>
        </p>
      )}
    </form>
  );
}
