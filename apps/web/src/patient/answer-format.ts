import { type AnswerValue, type FormLanguage, type FormQuestion, QuestionType } from '@pathwell/contracts/forms';
import type { LookupOption } from './api';
import { localized } from './text';

/**
 * How one answer reads, the same for the patient reviewing it and for staff reading the response:
 * option and list labels in the form's language, dates written out, a signature as signed.
 */
type AnswerDisplay =
  | { kind: 'empty' }
  | { kind: 'yes' }
  | { kind: 'no' }
  | { kind: 'signature'; image: string; signedAt: string }
  | { kind: 'text'; text: string };

export function answerDisplay(
  question: FormQuestion,
  value: AnswerValue | undefined,
  language: string,
  lookupOptions: readonly LookupOption[] = [],
): AnswerDisplay {
  const lang: FormLanguage = language === 'es' ? 'es' : 'en';
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0))
    return { kind: 'empty' };
  if (typeof value === 'boolean') return { kind: value ? 'yes' : 'no' };
  if (typeof value === 'object' && !Array.isArray(value))
    return { kind: 'signature', image: value.image, signedAt: value.signedAt };
  const labelOf = (item: string | number) => {
    const option = question.options?.find((candidate) => String(candidate.value) === String(item));
    if (option) return localized(option.label, lang);
    const listed = lookupOptions.find((candidate) => candidate.value === String(item));
    return listed ? localized(listed.label, lang) : String(item);
  };
  if (Array.isArray(value)) return { kind: 'text', text: value.map(labelOf).join(', ') };
  if (question.type === QuestionType.DATE && typeof value === 'string') {
    const [year, month, day] = value.split('-').map(Number);
    if (year && month && day) {
      const date = new Date(Date.UTC(year, month - 1, day));
      return {
        kind: 'text',
        text: date.toLocaleDateString(lang === 'es' ? 'es-US' : 'en-US', { timeZone: 'UTC', dateStyle: 'long' }),
      };
    }
  }
  return { kind: 'text', text: labelOf(value) };
}
