import type { Language } from './constants';

/**
 * Dates and times inside messages to a patient (emails, texts, merge fields): the month by name in the
 * patient's language and the clinic's time zone, never the staff screens' "11/28/2026 05:35 PM", which a
 * Spanish reader takes for day/month (issue #24 §5). The one way messages write a date.
 */
const locales: Record<Language, string> = { en: 'en-US', es: 'es-US' };

/** "November 28, 2026" / "28 de noviembre de 2026". */
export function messageDate(instant: Date | number, timeZone: string, language: Language): string {
  return new Intl.DateTimeFormat(locales[language], { dateStyle: 'long', timeZone }).format(instant);
}

/** "Saturday, November 28, 2026 at 5:35 PM" / "sábado, 28 de noviembre de 2026, 5:35 p.m.". */
export function messageDateTime(instant: Date | number, timeZone: string, language: Language): string {
  return new Intl.DateTimeFormat(locales[language], { dateStyle: 'full', timeStyle: 'short', timeZone }).format(instant);
}
