import type { FormLanguage, LocalizedText } from '@pathwell/contracts/forms';

/** A form text in the chosen language; English where the form has no Spanish version of it. */
export function localized(text: (Pick<LocalizedText, 'en'> & { es?: string }) | undefined, language: FormLanguage): string {
  if (!text) return '';
  return language === 'es' && text.es ? text.es : text.en;
}
