import { describe, expect, it } from 'vitest';
import {
  clinicDayEnd,
  clinicDayStart,
  clinicDayStartAfter,
  clinicDaysBetween,
  clinicIsoDate,
  clinicMdy,
  clinicTimeZoneOf,
  clinicTodayStart,
  clinicWeekStart,
  formatClinicDateTime,
  zoneOffsetMinutes,
} from './clinic-time';

const CHICAGO = 'America/Chicago';

describe('clinic time follows daylight saving', () => {
  it.each([
    // Spring forward (2025-03-09, 02:00 → 03:00): a day of 23 hours.
    ['03/09/2025', CHICAGO, '2025-03-09T06:00:00.000Z', '2025-03-10T05:00:00.000Z', 23],
    ['03/10/2025', CHICAGO, '2025-03-10T05:00:00.000Z', '2025-03-11T05:00:00.000Z', 24],
    // Fall back (2025-11-02, 02:00 → 01:00): a day of 25 hours.
    ['11/02/2025', CHICAGO, '2025-11-02T05:00:00.000Z', '2025-11-03T06:00:00.000Z', 25],
    ['12/31/2024', 'America/New_York', '2024-12-31T05:00:00.000Z', '2025-01-01T05:00:00.000Z', 24],
    ['03/10/2025', 'Asia/Kolkata', '2025-03-09T18:30:00.000Z', '2025-03-10T18:30:00.000Z', 24],
    ['03/10/2025', 'UTC', '2025-03-10T00:00:00.000Z', '2025-03-11T00:00:00.000Z', 24],
  ])('clinic day %s in %s runs from %s to %s (%i hours)', (day, zone, start, end, hours) => {
    expect(clinicDayStart(day, zone).toISOString()).toBe(start);
    expect(clinicDayEnd(day, zone).toISOString()).toBe(end);
    expect((clinicDayEnd(day, zone).getTime() - clinicDayStart(day, zone).getTime()) / 3_600_000).toBe(hours);
  });

  it.each([
    // Tuesday 22:00 CDT: still Tuesday; the week began on Sunday the 9th, which started in CST.
    ['2025-03-12T03:00:00Z', '2025-03-11T05:00:00.000Z', '2025-03-09T06:00:00.000Z'],
    ['2025-03-12T07:00:00Z', '2025-03-12T05:00:00.000Z', '2025-03-09T06:00:00.000Z'],
    // 00:30 on the Sunday of the fall-back change, still CDT.
    ['2025-11-02T05:30:00Z', '2025-11-02T05:00:00.000Z', '2025-11-02T05:00:00.000Z'],
    // 23:30 CST on that same Sunday: the day began 25.5 hours earlier in CDT.
    ['2025-11-03T05:30:00Z', '2025-11-02T05:00:00.000Z', '2025-11-02T05:00:00.000Z'],
    ['2025-01-15T12:00:00Z', '2025-01-15T06:00:00.000Z', '2025-01-12T06:00:00.000Z'],
  ])('in Chicago at %s today starts %s and the week %s', (now, today, week) => {
    expect(clinicTodayStart(new Date(now), CHICAGO).toISOString()).toBe(today);
    expect(clinicWeekStart(new Date(now), CHICAGO).toISOString()).toBe(week);
  });

  it.each([
    ['2025-01-10T05:30:00Z', '01/09/2025 11:30 PM', '2025-01-09'],
    ['2025-03-10T05:30:00Z', '03/10/2025 12:30 AM', '2025-03-10'],
    ['2025-07-04T14:07:00Z', '07/04/2025 09:07 AM', '2025-07-04'],
    ['2025-11-02T06:30:00Z', '11/02/2025 01:30 AM', '2025-11-02'],
    ['2025-11-02T07:30:00Z', '11/02/2025 01:30 AM', '2025-11-02'],
  ])('%s reads %s in Chicago', (instant, text, iso) => {
    expect(formatClinicDateTime(new Date(instant), CHICAGO)).toBe(text);
    expect(clinicIsoDate(new Date(instant), CHICAGO)).toBe(iso);
  });

  it('gives the offset of each instant: −6 h in winter, −5 h in summer', () => {
    expect(zoneOffsetMinutes(new Date('2025-01-15T12:00:00Z'), CHICAGO)).toBe(-360);
    expect(zoneOffsetMinutes(new Date('2025-07-15T12:00:00Z'), CHICAGO)).toBe(-300);
    expect(zoneOffsetMinutes(new Date('2025-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(330);
  });

  it('steps whole clinic days across a change', () => {
    const saturday = clinicDayStart('03/08/2025', CHICAGO);
    expect(clinicDayStartAfter(saturday, 2, CHICAGO).toISOString()).toBe('2025-03-10T05:00:00.000Z');
    expect(clinicMdy(clinicDayStartAfter(saturday, -8, CHICAGO), CHICAGO)).toBe('02/28/2025');
  });

  it('uses the stored zone, else the fixed zone of a whole-hour offset, else UTC', () => {
    expect(clinicTimeZoneOf(CHICAGO, -6)).toBe(CHICAGO);
    expect(clinicTimeZoneOf(null, -5)).toBe('Etc/GMT+5');
    expect(clinicTimeZoneOf('', 3)).toBe('Etc/GMT-3');
    expect(clinicTimeZoneOf('Nowhere/Special', 5.5)).toBe('UTC');
    expect(clinicTimeZoneOf(undefined, null)).toBe('UTC');
  });
});

describe('clinic days between two instants (decision 0060)', () => {
  it('counts calendar days in the clinic, not 24-hour periods', () => {
    // A visit at 09:00 and an answer at 22:30 seven clinic days later: 7 days 13.5 hours, still day +7.
    expect(clinicDaysBetween(new Date('2011-01-10T15:00:00Z'), new Date('2011-01-18T04:30:00Z'), CHICAGO)).toBe(7);
    // A baseline at 20:00 and a follow-up at 08:00 on the 28th clinic day: 27.5 periods, 28 days.
    expect(clinicDaysBetween(new Date('2011-01-04T02:00:00Z'), new Date('2011-01-31T14:00:00Z'), CHICAGO)).toBe(28);
    // The same two instants are one UTC day apart but the same clinic day.
    expect(clinicDaysBetween(new Date('2011-01-10T15:00:00Z'), new Date('2011-01-11T05:00:00Z'), CHICAGO)).toBe(0);
    expect(clinicDaysBetween(new Date('2011-01-31T14:00:00Z'), new Date('2011-01-04T02:00:00Z'), CHICAGO)).toBe(-28);
  });

  it('is whole across a daylight-saving change (a 23-hour day)', () => {
    expect(clinicDaysBetween(new Date('2025-03-08T18:00:00Z'), new Date('2025-03-10T05:30:00Z'), CHICAGO)).toBe(2);
  });
});
