import { i18n } from './i18n';

/**
 * Dates and times as the clinic reads them (specification section 9): MM/DD/YYYY, 12-hour times,
 * shifted by the clinic's stored time-zone offset in hours (session `instance.timeZoneOffsetHours`),
 * whatever time zone the browser is in; recent moments read 'Today at' and 'Yesterday at'.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type Instant = Date | string | number;

const pad = (value: number) => String(value).padStart(2, '0');

function toTime(instant: Instant): number {
  return instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
}

/** The wall clock of the clinic at an instant, read through the UTC fields of a shifted Date. */
function clinicClock(instant: Instant, offsetHours: number): Date | null {
  const time = toTime(instant);
  return Number.isFinite(time) ? new Date(time + offsetHours * HOUR_MS) : null;
}

/** MM/DD/YYYY on the clinic's calendar; '' for an unreadable instant. */
export function formatClinicDate(instant: Instant, offsetHours: number): string {
  const clock = clinicClock(instant, offsetHours);
  return clock ? `${pad(clock.getUTCMonth() + 1)}/${pad(clock.getUTCDate())}/${clock.getUTCFullYear()}` : '';
}

/** hh:mm AM/PM on the clinic's clock; '' for an unreadable instant. */
export function formatClinicTime(instant: Instant, offsetHours: number): string {
  const clock = clinicClock(instant, offsetHours);
  if (!clock) return '';
  const hours = clock.getUTCHours();
  return `${pad(hours % 12 === 0 ? 12 : hours % 12)}:${pad(clock.getUTCMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** MM/DD/YYYY hh:mm AM/PM on the clinic's clock. */
export function formatClinicDateTime(instant: Instant, offsetHours: number): string {
  const date = formatClinicDate(instant, offsetHours);
  return date && `${date} ${formatClinicTime(instant, offsetHours)}`;
}

/** Whole clinic days from the instant's day to today's: 0 today, 1 yesterday, negative in the future. */
export function clinicDaysAgo(instant: Instant, offsetHours: number, now: Instant = Date.now()): number | null {
  const then = clinicClock(instant, offsetHours);
  const today = clinicClock(now, offsetHours);
  if (!then || !today) return null;
  return Math.floor(today.getTime() / DAY_MS) - Math.floor(then.getTime() / DAY_MS);
}

/** 'Today at 03:15 PM', 'Yesterday at 09:02 AM', else MM/DD/YYYY hh:mm AM/PM, in the user's language. */
export function formatClinicRelative(instant: Instant, offsetHours: number, now: Instant = Date.now()): string {
  const daysAgo = clinicDaysAgo(instant, offsetHours, now);
  const time = formatClinicTime(instant, offsetHours);
  if (daysAgo === 0) return i18n.t('dates:todayAt', { time });
  if (daysAgo === 1) return i18n.t('dates:yesterdayAt', { time });
  return formatClinicDateTime(instant, offsetHours);
}

/** Today's date on the clinic's calendar as MM/DD/YYYY (a date filter's natural default). */
export function clinicToday(offsetHours: number, now: Instant = Date.now()): string {
  return formatClinicDate(now, offsetHours);
}
