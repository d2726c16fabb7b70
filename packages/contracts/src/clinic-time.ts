/**
 * Clinic time, shared by server and web. A clinic keeps its IANA time zone (`timeZoneId`, e.g.
 * America/Chicago); the offset from UTC is derived for each instant with the runtime's time-zone data
 * (Intl), so "today", the days of a date filter and every shown time follow daylight saving.
 * `timeZoneOffsetHours` stays only as the specification's read-out of the current offset.
 */

export interface ClinicClockParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows this IANA zone. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone a clinic's clock runs on: its `timeZoneId`, or for a clinic that only ever stored a whole-hour
 * offset, the fixed zone of that offset (Etc/GMT signs are inverted: UTC−5 is Etc/GMT+5), or UTC.
 */
export function clinicTimeZoneOf(timeZoneId: string | null | undefined, offsetHours?: number | null): string {
  if (timeZoneId && isKnownTimeZone(timeZoneId)) return timeZoneId;
  if (offsetHours && Number.isInteger(offsetHours) && offsetHours >= -12 && offsetHours <= 14) {
    return `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
  }
  return 'UTC';
}

/** The clinic's wall clock at an instant. */
export function clinicClock(instant: Date | number, timeZone: string): ClinicClockParts {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Minutes the clinic's clock is ahead of UTC at an instant (−300 for Chicago in winter, −300+60 in summer). */
export function zoneOffsetMinutes(instant: Date | number, timeZone: string): number {
  const time = new Date(instant).getTime();
  const clock = clinicClock(time, timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return Math.round((asUtc - (time - (time % 1000))) / 60_000);
}

/** The instant a wall-clock time in the clinic happens (a time skipped by a spring-forward resolves forward). */
export function instantOfClinicTime(year: number, month: number, day: number, timeZone: string, hour = 0, minute = 0): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const first = wall - zoneOffsetMinutes(wall, timeZone) * 60_000;
  const second = wall - zoneOffsetMinutes(first, timeZone) * 60_000;
  return new Date(second);
}

const parseMdy = (mdy: string) => mdy.split('/').map(Number) as [number, number, number];

/** The UTC instant at which clinic day MM/DD/YYYY begins. */
export function clinicDayStart(mdy: string, timeZone: string): Date {
  const [month, day, year] = parseMdy(mdy);
  return instantOfClinicTime(year, month, day, timeZone);
}

/** The instant the next clinic day begins: the exclusive end of MM/DD/YYYY (23 or 25 hours on change days). */
export function clinicDayEnd(mdy: string, timeZone: string): Date {
  const [month, day, year] = parseMdy(mdy);
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  return instantOfClinicTime(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
}

/** Midnight of the clinic's current day, as a UTC instant. */
export function clinicTodayStart(now: Date | number, timeZone: string): Date {
  const clock = clinicClock(now, timeZone);
  return instantOfClinicTime(clock.year, clock.month, clock.day, timeZone);
}

/** Midnight of the Sunday that starts the clinic's current week (US calendar), as a UTC instant. */
export function clinicWeekStart(now: Date | number, timeZone: string): Date {
  const clock = clinicClock(now, timeZone);
  const weekday = new Date(Date.UTC(clock.year, clock.month - 1, clock.day)).getUTCDay();
  const sunday = new Date(Date.UTC(clock.year, clock.month - 1, clock.day - weekday));
  return instantOfClinicTime(sunday.getUTCFullYear(), sunday.getUTCMonth() + 1, sunday.getUTCDate(), timeZone);
}

/** The clinic day `days` after the one that starts at `dayStart` (negative: before). */
export function clinicDayStartAfter(dayStart: Date, days: number, timeZone: string): Date {
  const clock = clinicClock(dayStart, timeZone);
  const target = new Date(Date.UTC(clock.year, clock.month - 1, clock.day + days));
  return instantOfClinicTime(target.getUTCFullYear(), target.getUTCMonth() + 1, target.getUTCDate(), timeZone);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Clinic date as MM/DD/YYYY (section 9). */
export function clinicMdy(instant: Date | number, timeZone: string): string {
  const clock = clinicClock(instant, timeZone);
  return `${pad(clock.month)}/${pad(clock.day)}/${clock.year}`;
}

/** Clinic time as hh:mm AM/PM (section 9). */
export function clinicTime12(instant: Date | number, timeZone: string): string {
  const { hour, minute } = clinicClock(instant, timeZone);
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${pad(hour12)}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** Clinic date and time as MM/DD/YYYY hh:mm AM/PM (section 9). */
export function formatClinicDateTime(instant: Date | number, timeZone: string): string {
  return `${clinicMdy(instant, timeZone)} ${clinicTime12(instant, timeZone)}`;
}

/** Clinic date as YYYY-MM-DD, for file names that sort and date columns. */
export function clinicIsoDate(instant: Date | number, timeZone: string): string {
  const clock = clinicClock(instant, timeZone);
  return `${clock.year}-${pad(clock.month)}-${pad(clock.day)}`;
}

/**
 * Whole days from `earlier` to `later` on the clinic's calendar (negative when `later` is on an earlier
 * day): what every report means by "N days after" (decision 0060), never 24-hour periods. The SQL twin is
 * `clinicDaysBetween` in apps/server/src/modules/reports/clinic-day.ts.
 */
export function clinicDaysBetween(earlier: Date | number, later: Date | number, timeZone: string): number {
  const from = clinicClock(earlier, timeZone);
  const to = clinicClock(later, timeZone);
  return Math.round((Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / 86_400_000);
}
