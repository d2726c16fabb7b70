import { DateFilterPreset, type DateFilterPresetValue } from '@pathwell/contracts/appointments';
import { clinicDayEnd, clinicDayStart, clinicTodayStart, clinicWeekStart } from '../activity/clinic-time';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

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

const plusDays = (instant: Date, days: number) => new Date(instant.getTime() + days * DAY_MS);

/** Midnight (clinic time) of the first day of a month `monthsAhead` from the clinic's current month. */
function clinicMonthStart(now: Date, offsetHours: number, monthsAhead: number): Date {
  const local = new Date(now.getTime() + offsetHours * HOUR_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + monthsAhead, 1) - offsetHours * HOUR_MS);
}

function clinicYearStart(now: Date, offsetHours: number, yearsAhead: number): Date {
  const local = new Date(now.getTime() + offsetHours * HOUR_MS);
  return new Date(Date.UTC(local.getUTCFullYear() + yearsAhead, 0, 1) - offsetHours * HOUR_MS);
}

/**
 * The clinic-calendar days a date filter preset covers, as UTC instants. "Today" is the clinic's
 * today (its `timeZoneOffsetHours`), not the server's; weeks start on Sunday (US calendar).
 * The filter schema has already required the dates a custom range or fixed date needs.
 */
export function appointmentDateWindow(filter: DateWindowFilter, now: Date, offsetHours: number): DateWindow {
  const today = clinicTodayStart(now, offsetHours);
  const week = clinicWeekStart(now, offsetHours);
  switch (filter.dateFilter) {
    case DateFilterPreset.Today:
      return { from: today, to: plusDays(today, 1) };
    case DateFilterPreset.Yesterday:
      return { from: plusDays(today, -1), to: today };
    case DateFilterPreset.Tomorrow:
      return { from: plusDays(today, 1), to: plusDays(today, 2) };
    case DateFilterPreset.ThisWeek:
      return { from: week, to: plusDays(week, 7) };
    case DateFilterPreset.LastWeek:
      return { from: plusDays(week, -7), to: week };
    case DateFilterPreset.ThisMonth:
      return { from: clinicMonthStart(now, offsetHours, 0), to: clinicMonthStart(now, offsetHours, 1) };
    case DateFilterPreset.LastMonth:
      return { from: clinicMonthStart(now, offsetHours, -1), to: clinicMonthStart(now, offsetHours, 0) };
    case DateFilterPreset.ThisYear:
      return { from: clinicYearStart(now, offsetHours, 0), to: clinicYearStart(now, offsetHours, 1) };
    case DateFilterPreset.LastYear:
      return { from: clinicYearStart(now, offsetHours, -1), to: clinicYearStart(now, offsetHours, 0) };
    case DateFilterPreset.CustomRange:
      return { from: clinicDayStart(filter.startDate!, offsetHours), to: clinicDayEnd(filter.endDate!, offsetHours) };
    case DateFilterPreset.FixedDate:
      return { from: clinicDayStart(filter.fixedDate!, offsetHours), to: clinicDayEnd(filter.fixedDate!, offsetHours) };
  }
}
