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
/** US numbers: ten digits (area code not starting with 0 or 1), optional +1, common separators. */
export const US_PHONE_PATTERN = /^(\+?1[\s.-]?)?\(?[2-9]\d{2}\)?[\s.-]?\d{3}[\s.-]?\d{4}$/;
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

/**
 * What is wrong with a typed MM/DD/YYYY date: its shape ('dateInvalid'), or, shaped right, that no
 * such day exists or its year is out of range ('dateNotReal': 02/31/1982 is not a wrong format).
 */
export function mdyDateProblem(value: string): 'dateInvalid' | 'dateNotReal' | null {
  if (!DATE_MDY_PATTERN.test(value)) return 'dateInvalid';
  return isValidMdyDate(value) ? null : 'dateNotReal';
}

/** A required MM/DD/YYYY date, refused with the one problem `mdyDateProblem` names. */
export const mdyDateSchema = (required: 'required' | 'dateInvalid' = 'required') =>
  z
    .string({ error: required })
    .trim()
    .max(10, 'dateInvalid')
    .refine((value) => DATE_MDY_PATTERN.test(value), 'dateInvalid')
    .refine((value) => !DATE_MDY_PATTERN.test(value) || isValidMdyDate(value), 'dateNotReal');

/** An ISO 8601 instant with a date and a time (`2031-03-03T15:00:00Z`, any offset) whose year is in range. */
export function isValidInstant(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && isYearInRange(new Date(time).getUTCFullYear());
}

function isPrivateIpv4(octets: readonly number[]): boolean {
  const [a = 0, b = 0] = octets;
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224 // multicast and reserved
  );
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const toGroups = (parts: string[]) =>
    parts.flatMap((part) => {
      const dotted = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(part);
      if (dotted) {
        const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
        return [(a << 8) | b, (c << 8) | d];
      }
      return /^[0-9a-f]{1,4}$/i.test(part) ? [parseInt(part, 16)] : [Number.NaN];
    });
  const first = toGroups(head);
  const last = toGroups(tail);
  const missing = 8 - first.length - last.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...first, ...Array<number>(missing).fill(0), ...last];
  return groups.some(Number.isNaN) ? null : groups;
}

function isPrivateIpv6(address: string): boolean {
  const groups = ipv6Groups(address);
  if (!groups) return true; // not understood: not allowed
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const embeddedV4 = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  if (groups.slice(0, 7).every((group) => group === 0) && (g7 === 0 || g7 === 1)) return true; // :: and ::1
  if (groups.slice(0, 5).every((group) => group === 0) && g5 === 0xffff) return isPrivateIpv4(embeddedV4); // ::ffff:a.b.c.d
  if (groups.slice(0, 6).every((group) => group === 0)) return isPrivateIpv4(embeddedV4); // ::a.b.c.d (deprecated)
  if (g0 === 0x64 && groups[1] === 0xff9b) return isPrivateIpv4(embeddedV4); // NAT64
  return (
    (g0 & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (g0 & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (g0 & 0xff00) === 0xff00 // multicast
  );
}

/** Whether a URL's host names this machine, a private network or a link-local address. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '') return true;
  if (host.startsWith('[') && host.endsWith(']')) return isPrivateIpv6(host.slice(1, -1));
  // The URL parser has already turned 2130706433, 0x7f.1 and 017700000001 into dotted decimal.
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  return v4 ? isPrivateIpv4(v4.slice(1).map(Number)) : false;
}

/**
 * URL rule of section 5: http, https or ftp, and never a private, loopback or link-local address —
 * IPv4, IPv6, IPv4-mapped IPv6 and the numeric spellings of each (integrations will call stored URLs).
 */
export function isAllowedPublicUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:'].includes(url.protocol)) return false;
  return !isPrivateHost(url.hostname);
}

/**
 * An optional clinic day in the specification's date format (MM/DD/YYYY), as date filters send it:
 * '', null and absent all mean "no date".
 */
export const optionalMdyDaySchema = z
  .string()
  .trim()
  .max(10, 'dateInvalid')
  .refine((value) => value === '' || isValidMdyDate(value), 'dateInvalid')
  .nullish()
  .transform((value) => value || undefined);
