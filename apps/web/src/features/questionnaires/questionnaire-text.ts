import { enumerations } from '@pathwell/contracts/enumerations';
import type { FormLanguage, LocalizedText } from '@pathwell/contracts/forms';
import { i18n } from '../../lib/i18n';

export const OUTCOME_FORM_CODES = enumerations.outcomeForms.map((option) => Number(option.value));

/** The text in the wanted language, English where no translation exists. */
export function localized(text: LocalizedText | undefined, language: string): string {
  if (!text) return '';
  return language === 'es' && text.es ? text.es : text.en;
}

/** The staff screens' name of an outcome form; SF-36 carries the scoring it uses (RAND-36). */
export function outcomeFormName(formCode: number, language: string = i18n.language): string {
  if (formCode === 1) return i18n.t('questionnaires:forms.sf36Staff', { lng: language });
  const option = enumerations.outcomeForms.find((candidate) => candidate.value === formCode);
  if (!option) return String(formCode);
  return language === 'es' ? option.label.es : option.label.en;
}

export function languageName(language: FormLanguage | string): string {
  return i18n.t(`questionnaires:languages.${language === 'es' ? 'es' : 'en'}`);
}

/** Scores are stored unrounded; staff read them with the instrument's decimals (at most 2 otherwise). */
export function formatScore(value: number | null | undefined, decimals?: number): string {
  if (value === null || value === undefined) return '—';
  if (decimals !== undefined) return value.toFixed(decimals);
  return String(Math.round(value * 100) / 100);
}
