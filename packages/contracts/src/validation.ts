import { z } from 'zod';

/** Patterns of specification section 5. */
export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * A local part, `@`, and a domain with a dot that is neither its first nor its last character. Each
 * character has one way to match (the domain's first dot after its first character ends `[^\s@.]*`),
 * so the work grows with the length only. The former `[^\s@]+\.[^\s@]+` tried every dot as the
 * separator: a crafted address of 32,000 characters took 0.8 s (security review, issue #9).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;
/** RFC 5321: a forward path holds at most 254 characters of address. */
export const EMAIL_MAX_LENGTH = 254;
export const US_ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
export const FOUR_DIGIT_PATTERN = /^\d{4}$/;
export const PIN_PATTERN = /^\d{6}$/;
export const CARD_MONTH_PATTERN = /^(0[1-9]|1[0-2])$/;
export const CARD_CVC_PATTERN = /^\d{3,4}$/;
export const DATE_MDY_PATTERN = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/;
/** At least 8 characters with one uppercase letter, one digit and one non-alphanumeric character. */
export const PASSWORD_PATTERN = /^(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z0-9]).{8,}$/;

export const idSchema = z.string().min(1, 'required').max(36, 'idInvalid').regex(ID_PATTERN, 'idInvalid');

export const emailSchema = z
  .string({ error: 'emailRequired' })
  .trim()
  .min(1, 'emailRequired')
  // Aborts: zod runs every check otherwise, and no pattern needs to read a megabyte to refuse it.
  .max(EMAIL_MAX_LENGTH, { error: 'tooLong', abort: true })
  .regex(EMAIL_PATTERN, 'emailInvalid')
  .transform((value) => value.toLowerCase());

export const passwordInputSchema = z.string({ error: 'passwordRequired' }).min(1, 'passwordRequired').max(200, 'tooLong');

export const newPasswordSchema = z
  .string({ error: 'newPasswordRequired' })
  .min(1, 'newPasswordRequired')
  .max(200, 'tooLong')
  .regex(PASSWORD_PATTERN, 'passwordPolicy');

export const pinSchema = z.string().max(6, 'pinInvalid').regex(PIN_PATTERN, 'pinInvalid');
export const twoFactorCodeSchema = z.string().trim().max(6, 'codeInvalid').regex(PIN_PATTERN, 'codeInvalid');

/**
 * Years a date may carry: any living patient's birth and any plan ahead, and far enough from the
 * edges that date arithmetic stays within what PostgreSQL and `Date#toISOString` read back (a filter
 * "to 12/31/9999" became the instant 10000-01-01, a 500 of the activity log: issue #9).
 */
export const DATE_YEAR_MIN = 1800;
export const DATE_YEAR_MAX = 2200;
export const isYearInRange = (year: number) => year >= DATE_YEAR_MIN && year <= DATE_YEAR_MAX;

/** Calendar check for MM/DD/YYYY: the pattern admits 02/31, the calendar does not; the year must be in range. */
export function isValidMdyDate(value: string): boolean {
  if (!DATE_MDY_PATTERN.test(value)) return false;
  const [month, day, year] = value.split('/').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return isYearInRange(year) && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An ISO 8601 instant with a date and a time (`2031-03-03T15:00:00Z`, any offset) whose year is in range. */
export function isValidInstant(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && isYearInRange(new Date(time).getUTCFullYear());
}

const PRIVATE_HOST = /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.0\.0\.0|\[?::1\]?$|169\.254\.)/i;
/** URL rule of section 5: http, https or ftp, and never a private or loopback address. */
export function isAllowedPublicUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:'].includes(url.protocol)) return false;
  return !PRIVATE_HOST.test(url.hostname);
}
