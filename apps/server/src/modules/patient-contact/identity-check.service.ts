import {
  LINK_LOCK_MINUTES,
  LINK_VERIFY_FAILURES_BEFORE_CLOSED,
  LINK_VERIFY_MAX_FAILURES,
} from '@pathwell/contracts/patient-links';
import { mdyToIso } from '@pathwell/contracts/patients';
import { AppError } from '../../lib/app-error';
import { sameHash, sha256 } from '../../lib/secrets';

/**
 * The one identity check of every patient route (links, intake, consents, the self check-in QR page):
 * last name and date of birth, and one lockout policy with one answer (decision 0059).
 */

const MINUTE_MS = 60_000;

/** Case, accents, spacing and punctuation such as hyphens or apostrophes do not count against the patient. */
export function normalizeLastName(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Words that join or introduce surnames ("Fernández y Peña", "de la Cruz"): they are not a surname on
 * their own, so typing "de" alone never matches, but they stay part of the surname they introduce.
 */
const PARTICLES = new Set([
  'de',
  'del',
  'la',
  'las',
  'los',
  'y',
  'e',
  'i',
  'da',
  'das',
  'do',
  'dos',
  'van',
  'von',
  'der',
  'den',
  'di',
  'le',
  'st',
  'san',
]);

/**
 * Everything a patient may type for the recorded last name: the whole of it, or any one surname of a
 * compound one ("Fernández Peña", "García-López", "de la Cruz Ruiz"), with or without its particles.
 * Spanish-speaking patients are often recorded with both surnames and give only the first (or a clinic
 * recorded one and the patient gives both); both are the same person's name.
 */
function lastNameForms(recorded: string): string[] {
  const words = recorded
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/'/g, ''))
    .filter(Boolean);
  const forms = new Set<string>([normalizeLastName(recorded)]);
  let leading: string[] = [];
  for (const word of words) {
    if (PARTICLES.has(word)) {
      // "y" / "e" join two surnames; the others introduce the next one.
      leading = word === 'y' || word === 'e' || word === 'i' ? [] : [...leading, word];
      continue;
    }
    forms.add(word);
    if (leading.length > 0) forms.add([...leading, word].join(''));
    leading = [];
  }
  return [...forms].filter((form) => form.length > 0);
}

/** Hash both sides, and compare against every form, so the time taken does not depend on which matched. */
export function lastNameMatches(recorded: string, typed: string): boolean {
  const typedHash = sha256(normalizeLastName(typed));
  let matches = false;
  for (const form of lastNameForms(recorded)) {
    if (sameHash(sha256(form), typedHash)) matches = true;
  }
  return matches;
}

export function identityMatches(
  recorded: { lastName: string; dateOfBirth: string | null },
  typed: { lastName: string; dateOfBirth: string },
): boolean {
  const nameMatches = lastNameMatches(recorded.lastName, typed.lastName);
  // A record without a birth date, or a date that is not one, never matches: the check needs both.
  const birthMatches = sameHash(sha256(recorded.dateOfBirth ?? 'none'), sha256(mdyToIso(typed.dateOfBirth) ?? 'invalid'));
  return nameMatches && birthMatches;
}

type IdentityFailure = {
  failures: number;
  /** Set when this failure locks; null while tries are left. */
  lockedUntil: Date | null;
  /** Wrong answers left before the next lock (0 when this one locked). */
  attemptsLeft: number;
  /** The last lock: until `closesAt`, not for LINK_LOCK_MINUTES. */
  closed: boolean;
};

/**
 * The lockout policy: failures accumulate across locks and only a success resets them; every
 * LINK_VERIFY_MAX_FAILURES-th locks for LINK_LOCK_MINUTES, and after LINK_VERIFY_FAILURES_BEFORE_CLOSED
 * the lock lasts until `closesAt` (the link's expiry, the end of the visit's day), so a birth date
 * cannot be guessed over days.
 */
export function nextIdentityFailure(previousFailures: number, now: Date, closesAt: Date): IdentityFailure {
  const failures = previousFailures + 1;
  const closed = failures >= LINK_VERIFY_FAILURES_BEFORE_CLOSED;
  const locks = closed || failures % LINK_VERIFY_MAX_FAILURES === 0;
  const lockedUntil = !locks ? null : closed ? closesAt : new Date(now.getTime() + LINK_LOCK_MINUTES * MINUTE_MS);
  const attemptsLeft = locks ? 0 : LINK_VERIFY_MAX_FAILURES - (failures % LINK_VERIFY_MAX_FAILURES);
  return { failures, lockedUntil, attemptsLeft, closed };
}

/** What the activity log says about a failure. */
export function identityFailureText(what: string, failure: IdentityFailure): string {
  if (failure.closed) return `${what} did not match ${failure.failures} times; locked until the link or visit day ends`;
  if (failure.lockedUntil) return `${what} did not match; locked for ${LINK_LOCK_MINUTES} minutes`;
  const counted = LINK_VERIFY_MAX_FAILURES - failure.attemptsLeft;
  return `${what} did not match (${counted} of ${LINK_VERIFY_MAX_FAILURES})`;
}

export const lockedMinutes = (lockedUntil: Date | null, now: Date) =>
  lockedUntil && lockedUntil.getTime() > now.getTime() ? Math.ceil((lockedUntil.getTime() - now.getTime()) / MINUTE_MS) : null;

/** The one answer to a locked check: 429 with the minutes left (and Retry-After). */
export const identityLocked = (lockedUntil: Date, now: Date) => {
  const minutes = lockedMinutes(lockedUntil, now) ?? 1;
  return new AppError('RATE_LIMITED', 'identityLocked', { params: { minutes }, retryAfterSeconds: minutes * 60 });
};

/**
 * The one answer to a wrong identity, with the tries left before the lock: on the last name for the
 * name-and-birth-date pair (one answer for both), on the code for an emailed code.
 */
export const identityMismatch = (attemptsLeft: number, kind: 'identity' | 'code' = 'identity') =>
  kind === 'code'
    ? new AppError('VALIDATION', 'codeNotValid', { fields: { code: 'codeWrong' }, params: { attemptsLeft } })
    : new AppError('VALIDATION', 'identityMismatch', { fields: { lastName: 'identityMismatch' }, params: { attemptsLeft } });
