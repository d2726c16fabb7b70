import { clinicClock, clinicMdy, clinicTime12 } from '@pathwell/contracts/clinic-time';
import { i18n } from './i18n';

/**
 * Dates and times as the clinic reads them (specification section 9): MM/DD/YYYY, 12-hour times, on
 * the clinic's clock (session `instance.timeZoneId`, daylight saving included) whatever time zone the
 * browser is in; recent moments read 'Today at' and 'Yesterday at'.
 */
type Instant = Date | string | number;

function toTime(instant: Instant): number | null {
  const time = instant instanceof Date ? instant.getTime() : typeof instant === 'number' ? instant : Date.parse(instant);
  return Number.isFinite(time) ? time : null;
}

/** MM/DD/YYYY on the clinic's calendar; '' for an unreadable instant. */
export function formatClinicDate(instant: Instant, timeZone: string): string {
  const time = toTime(instant);
  return time === null ? '' : clinicMdy(time, timeZone);
}

/** hh:mm AM/PM on the clinic's clock; '' for an unreadable instant. */
export function formatClinicTime(instant: Instant, timeZone: string): string {
  const time = toTime(instant);
  return time === null ? '' : clinicTime12(time, timeZone);
}

/** MM/DD/YYYY hh:mm AM/PM on the clinic's clock. */
export function formatClinicDateTime(instant: Instant, timeZone: string): string {
  const date = formatClinicDate(instant, timeZone);
  return date && `${date} ${formatClinicTime(instant, timeZone)}`;
}

const DAY_MS = 86_400_000;
const clinicDayNumber = (time: number, timeZone: string) => {
  const clock = clinicClock(time, timeZone);
  return Date.UTC(clock.year, clock.month - 1, clock.day) / DAY_MS;
};

/** Whole clinic days from the instant's day to today's: 0 today, 1 yesterday, negative in the future. */
export function clinicDaysAgo(instant: Instant, timeZone: string, now: Instant = Date.now()): number | null {
  const then = toTime(instant);
  const today = toTime(now);
  if (then === null || today === null) return null;
  return clinicDayNumber(today, timeZone) - clinicDayNumber(then, timeZone);
}

/** 'Today at 03:15 PM', 'Yesterday at 09:02 AM', else MM/DD/YYYY hh:mm AM/PM, in the user's language. */
export function formatClinicRelative(instant: Instant, timeZone: string, now: Instant = Date.now()): string {
  const daysAgo = clinicDaysAgo(instant, timeZone, now);
  const time = formatClinicTime(instant, timeZone);
  if (daysAgo === 0) return i18n.t('dates:todayAt', { time });
  if (daysAgo === 1) return i18n.t('dates:yesterdayAt', { time });
  return formatClinicDateTime(instant, timeZone);
}

/** Today's date on the clinic's calendar as MM/DD/YYYY (a date filter's natural default). */
export function clinicToday(timeZone: string, now: Instant = Date.now()): string {
  return formatClinicDate(now, timeZone);
}
