import { DateFilterPreset, type DateFilterPresetValue } from '@pathwell/contracts/appointments';
import {
  clinicClock,
  clinicDayEnd,
  clinicDayStart,
  clinicDayStartAfter,
  clinicTodayStart,
  clinicWeekStart,
} from '@pathwell/contracts/clinic-time';

// The date filter presets in clinic time, shared by the appointment lists and the reports; the
// clinic-time primitives they are built from stay in contracts (`clinic-time.ts`), shared with the web.

export interface DateWindowFilter {
  dateFilter: DateFilterPresetValue;
  startDate?: string;
  endDate?: string;
  fixedDate?: string;
}

/** A half-open window [from, to) of UTC instants. */
export interface DateWindow {
  from: Date;
  to: Date;
}

const mdyOf = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day));
  return `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/${date.getUTCFullYear()}`;
};

/** Midnight (clinic time) of the first day of a month `monthsAhead` from the clinic's current month. */
function clinicMonthStart(now: Date, timeZone: string, monthsAhead: number): Date {
  const clock = clinicClock(now, timeZone);
  return clinicDayStart(mdyOf(clock.year, clock.month + monthsAhead, 1), timeZone);
}

function clinicYearStart(now: Date, timeZone: string, yearsAhead: number): Date {
  return clinicDayStart(mdyOf(clinicClock(now, timeZone).year + yearsAhead, 1, 1), timeZone);
}

/**
 * The clinic-calendar days a date filter preset covers, as UTC instants. "Today" is the clinic's
 * today in its time zone (`timeZoneId`, daylight saving included), not the server's; weeks start on
 * Sunday (US calendar); a day is 23 or 25 hours long when the clocks change.
 * The filter schema has already required the dates a custom range or fixed date needs.
 */
export function appointmentDateWindow(filter: DateWindowFilter, now: Date, timeZone: string): DateWindow {
  const today = clinicTodayStart(now, timeZone);
  const week = clinicWeekStart(now, timeZone);
  switch (filter.dateFilter) {
    case DateFilterPreset.Today:
      return { from: today, to: clinicDayStartAfter(today, 1, timeZone) };
    case DateFilterPreset.Yesterday:
      return { from: clinicDayStartAfter(today, -1, timeZone), to: today };
    case DateFilterPreset.Tomorrow:
      return { from: clinicDayStartAfter(today, 1, timeZone), to: clinicDayStartAfter(today, 2, timeZone) };
    case DateFilterPreset.ThisWeek:
      return { from: week, to: clinicDayStartAfter(week, 7, timeZone) };
    case DateFilterPreset.LastWeek:
      return { from: clinicDayStartAfter(week, -7, timeZone), to: week };
    case DateFilterPreset.ThisMonth:
      return { from: clinicMonthStart(now, timeZone, 0), to: clinicMonthStart(now, timeZone, 1) };
    case DateFilterPreset.LastMonth:
      return { from: clinicMonthStart(now, timeZone, -1), to: clinicMonthStart(now, timeZone, 0) };
    case DateFilterPreset.ThisYear:
      return { from: clinicYearStart(now, timeZone, 0), to: clinicYearStart(now, timeZone, 1) };
    case DateFilterPreset.LastYear:
      return { from: clinicYearStart(now, timeZone, -1), to: clinicYearStart(now, timeZone, 0) };
    case DateFilterPreset.CustomRange:
      return { from: clinicDayStart(filter.startDate!, timeZone), to: clinicDayEnd(filter.endDate!, timeZone) };
    case DateFilterPreset.FixedDate:
      return { from: clinicDayStart(filter.fixedDate!, timeZone), to: clinicDayEnd(filter.fixedDate!, timeZone) };
  }
}
