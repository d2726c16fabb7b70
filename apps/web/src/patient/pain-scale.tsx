import './pain-scale.css';
import { useTranslation } from 'react-i18next';

const PAIN_SCALE_SCORES = Array.from({ length: 11 }, (_, index) => index);

/**
 * A 0–10 pain answer (issue #24 §1): eleven radio buttons with nothing chosen until the patient
 * chooses, so scrolling past the question records nothing. "0, no pain" is a wide choice of its own
 * above 1–10, so "no pain" is said on purpose rather than left as a slider's resting place. Native
 * radios with one name: Tab reaches the group, the arrow keys move through 0–10.
 */
export function PainScale({
  name,
  value,
  onChange,
  labelledBy,
  describedBy,
  invalid,
  disabled,
}: {
  name: string;
  value: number | null | undefined;
  onChange: (score: number) => void;
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation('patient');
  const labelOf = (score: number) =>
    score === 0 ? t('painScale.labelNone') : score === 10 ? t('painScale.labelWorst') : t('painScale.label', { score });
  return (
    <div
      className="pw-pain-scale"
      role="radiogroup"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      aria-required="true"
    >
      {PAIN_SCALE_SCORES.map((score) => {
        const checked = value === score;
        const className = ['pw-pain-score', score === 0 ? 'pw-pain-score-none' : '', checked ? 'pw-pain-score-checked' : '']
          .filter(Boolean)
          .join(' ');
        return (
          <label key={score} className={className}>
            <input
              type="radio"
              name={name}
              value={score}
              checked={checked}
              aria-label={labelOf(score)}
              disabled={disabled}
              onChange={() => onChange(score)}
            />
            <span aria-hidden="true">{score === 0 ? t('painScale.none') : score}</span>
          </label>
        );
      })}
    </div>
  );
}
