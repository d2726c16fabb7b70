import { sql, type SQL } from 'drizzle-orm';

/*
 * One definition of "day" for every report (decisions 0046 and 0060): a day is a date on the clinic's
 * calendar (its IANA time zone, daylight saving included), and "N days after" counts calendar days between
 * those dates, never 24-hour periods. An answer at 22:30 on the seventh clinic day after a visit is seven
 * days after it; a follow-up at 08:00 on the 28th clinic day after a baseline taken at 20:00 is 28 days
 * after it. The TypeScript twin is `clinicDaysBetween` in @pathwell/contracts/clinic-time.
 */

/** The clinic-calendar date of an instant (timestamptz). */
export const clinicDayOf = (instant: SQL, timeZone: string): SQL => sql`(${instant} at time zone ${timeZone})::date`;

/**
 * The first instant of the clinic day `days` after the instant's own clinic day (negative: before). An
 * instant x is "at least N clinic days after" y exactly when x >= clinicDayStartAfter(y, N), and "at most N
 * clinic days after" y when x < clinicDayStartAfter(y, N + 1): comparisons on the stored instant, so an index
 * on it still bounds the scan.
 */
export const clinicDayStartAfter = (instant: SQL, days: number, timeZone: string): SQL =>
  sql`((${clinicDayOf(instant, timeZone)} + ${days}::int)::timestamp at time zone ${timeZone})`;
