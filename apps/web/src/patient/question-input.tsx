import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AnswerValue,
  type FormLanguage,
  type FormQuestion,
  type OptionValue,
  QuestionType,
  type SignatureAnswer,
} from '@pathwell/contracts/forms';
import { lookupKindFor, useLookup } from './lookups';
import { SignaturePad } from './signature-pad';
import { localized } from './text';

type Props = {
  question: FormQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  language: FormLanguage;
  /** Id of the question's heading, which labels every input. */
  labelId: string;
  /** Ids of the help and error texts. */
  describedBy: string | undefined;
  invalid: boolean;
};

/** Likert answers sit in one row when they are few and short enough for a 375 px screen. */
function likertFitsInRow(labels: string[]): boolean {
  if (labels.length > 7) return false;
  const longest = Math.max(0, ...labels.map((label) => label.length));
  return longest <= (labels.length <= 5 ? 14 : 8);
}

function sameOption(option: OptionValue, value: unknown): boolean {
  return String(option) === String(value);
}

export function QuestionInput({ question, value, onChange, language, labelId, describedBy, invalid }: Props) {
  const { t } = useTranslation('patient');
  const common = {
    'aria-labelledby': labelId,
    'aria-describedby': describedBy,
    'aria-invalid': invalid || undefined,
    'aria-required': question.required || undefined,
  };
  const text = typeof value === 'string' ? value : '';
  const inputName = `q-${question.id}`;
  const options = question.options ?? [];

  switch (question.type) {
    case QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED:
    case QuestionType.LIKERT_SCALE: {
      const labels = options.map((option) => localized(option.label, language));
      const row = question.type === QuestionType.LIKERT_SCALE && likertFitsInRow(labels);
      return (
        <div className={row ? 'pw-choices pw-scale' : 'pw-choices'} role="radiogroup" {...common}>
          {options.map((option, index) => {
            const checked = value !== undefined && value !== null && sameOption(option.value, value);
            return (
              <label key={String(option.value)} className={checked ? 'pw-choice pw-choice-checked' : 'pw-choice'}>
                <input
                  type="radio"
                  name={inputName}
                  value={String(option.value)}
                  checked={checked}
                  onChange={() => onChange(option.value)}
                  aria-describedby={describedBy}
                />
                <span>{labels[index]}</span>
              </label>
            );
          })}
        </div>
      );
    }
    case QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED: {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <div className="pw-choices" role="group" {...common}>
          {options.map((option) => {
            const checked = chosen.some((item) => sameOption(option.value, item));
            const toggle = () => {
              const next = options
                .map((candidate) => candidate.value)
                .filter((candidate) =>
                  sameOption(candidate, option.value) ? !checked : chosen.some((item) => sameOption(candidate, item)),
                );
              onChange(next);
            };
            return (
              <label key={String(option.value)} className={checked ? 'pw-choice pw-choice-checked' : 'pw-choice'}>
                <input type="checkbox" name={inputName} checked={checked} onChange={toggle} aria-describedby={describedBy} />
                <span>{localized(option.label, language)}</span>
              </label>
            );
          })}
        </div>
      );
    }
    case QuestionType.CHECKBOX: {
      const checked = value === true;
      return (
        <div className="pw-choices">
          <label className={checked ? 'pw-choice pw-choice-checked' : 'pw-choice'}>
            <input
              type="checkbox"
              name={inputName}
              checked={checked}
              onChange={(event) => onChange(event.target.checked)}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
            />
            <span>{t('form.checkboxYes')}</span>
          </label>
        </div>
      );
    }
    case QuestionType.DESCRIPTIVE:
      return (
        <textarea
          className="pw-input pw-textarea"
          rows={5}
          maxLength={5000}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          {...common}
        />
      );
    case QuestionType.PHONE_NUMBER:
      return (
        <input
          className="pw-input"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          maxLength={20}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          {...common}
        />
      );
    case QuestionType.ZIP_CODE:
      return (
        <input
          className="pw-input"
          type="text"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={10}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          {...common}
        />
      );
    case QuestionType.TAX_ID:
      return (
        <input
          className="pw-input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={11}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          {...common}
        />
      );
    case QuestionType.EMAIL:
      return (
        <input
          className="pw-input"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={254}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          {...common}
        />
      );
    case QuestionType.DATE:
      return (
        <input className="pw-input" type="date" value={text} onChange={(event) => onChange(event.target.value)} {...common} />
      );
    case QuestionType.NUMBER:
      return <NumberInput question={question} value={value} onChange={onChange} common={common} />;
    case QuestionType.DROP_DOWN_WITH_OPTION:
    case QuestionType.STATES:
    case QuestionType.COUNTRIES:
    case QuestionType.TIME_ZONE:
    case QuestionType.PATIENT_PHONENUMBER_TYPE:
      return <SelectInput question={question} value={value} onChange={onChange} language={language} common={common} />;
    case QuestionType.SIGNATURE:
      return (
        <SignaturePad
          value={value && typeof value === 'object' && !Array.isArray(value) ? (value as SignatureAnswer) : null}
          onChange={onChange}
          labelledBy={labelId}
          describedBy={describedBy}
          invalid={invalid}
        />
      );
    case QuestionType.INFO:
      return null;
    default:
      return null;
  }
}

type Common = Record<string, string | boolean | undefined>;

function NumberInput({
  question,
  value,
  onChange,
  common,
}: {
  question: FormQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  common: Common;
}) {
  const [raw, setRaw] = useState(typeof value === 'number' ? String(value) : '');
  return (
    <input
      className="pw-input pw-number"
      type="number"
      inputMode="decimal"
      min={question.min}
      max={question.max}
      step="any"
      value={raw}
      onChange={(event) => {
        setRaw(event.target.value);
        const parsed = event.target.value.trim() === '' ? Number.NaN : Number(event.target.value);
        onChange(Number.isFinite(parsed) ? parsed : null);
      }}
      {...common}
    />
  );
}

function SelectInput({
  question,
  value,
  onChange,
  language,
  common,
}: {
  question: FormQuestion;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  language: FormLanguage;
  common: Common;
}) {
  const { t } = useTranslation('patient');
  const kind = lookupKindFor(question);
  const lookup = useLookup(kind);
  if (kind && lookup.status !== 'ready') {
    if (lookup.status === 'failed') {
      return (
        <div className="pw-notice" role="alert">
          <p>{t('form.choicesFailed')}</p>
          <button type="button" className="pw-button pw-button-secondary" onClick={lookup.retry}>
            {t('problem.retry')}
          </button>
        </div>
      );
    }
    return (
      <p className="pw-hint" role="status">
        {t('form.loadingChoices')}
      </p>
    );
  }
  const choices = kind
    ? lookup.options.map((option) => ({ value: option.value as OptionValue, label: localized(option.label, language) }))
    : (question.options ?? []).map((option) => ({ value: option.value, label: localized(option.label, language) }));
  const current = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  return (
    <select
      className="pw-input pw-select"
      value={current}
      onChange={(event) => {
        const picked = choices.find((choice) => String(choice.value) === event.target.value);
        onChange(picked ? picked.value : null);
      }}
      {...common}
    >
      <option value="">{t('form.selectPlaceholder')}</option>
      {choices.map((choice) => (
        <option key={String(choice.value)} value={String(choice.value)}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}
