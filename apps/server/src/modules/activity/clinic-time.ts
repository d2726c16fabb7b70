/**
 * Clinic time on the server. A clinic stores its time zone as a fixed offset in hours
 * (`timeZoneOffsetHours`, specification section 9), so "today" and the days of a date filter are
 * computed by shifting UTC by that offset; there is no daylight-saving rule to apply.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The UTC instant at which clinic day MM/DD/YYYY begins. */
export function clinicDayStart(mdy: string, offsetHours: number): Date {
  const [month, day, year] = mdy.split('/').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day) - offsetHours * HOUR_MS);
}

/** The UTC instant at which the clinic day after MM/DD/YYYY begins: the exclusive end of that day. */
export function clinicDayEnd(mdy: string, offsetHours: number): Date {
  return new Date(clinicDayStart(mdy, offsetHours).getTime() + DAY_MS);
}

/** Midnight of the clinic's current day, as a UTC instant. */
export function clinicTodayStart(now: Date, offsetHours: number): Date {
  const local = now.getTime() + offsetHours * HOUR_MS;
  return new Date(Math.floor(local / DAY_MS) * DAY_MS - offsetHours * HOUR_MS);
}

/** Midnight of the Sunday that starts the clinic's current week (US calendar), as a UTC instant. */
export function clinicWeekStart(now: Date, offsetHours: number): Date {
  const today = clinicTodayStart(now, offsetHours);
  const weekday = new Date(today.getTime() + offsetHours * HOUR_MS).getUTCDay();
  return new Date(today.getTime() - weekday * DAY_MS);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Clinic date and time as MM/DD/YYYY hh:mm AM/PM (section 9). */
export function formatClinicDateTime(instant: Date, offsetHours: number): string {
  const local = new Date(instant.getTime() + offsetHours * HOUR_MS);
  const hours = local.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${pad(local.getUTCMonth() + 1)}/${pad(local.getUTCDate())}/${local.getUTCFullYear()} ${pad(hour12)}:${pad(local.getUTCMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** Clinic date as YYYY-MM-DD, for file names that sort. */
export function clinicIsoDate(instant: Date, offsetHours: number): string {
  const local = new Date(instant.getTime() + offsetHours * HOUR_MS);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
}
