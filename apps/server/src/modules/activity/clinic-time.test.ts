import { describe, expect, it } from 'vitest';
import {
  clinicDayEnd,
  clinicDayStart,
  clinicIsoDate,
  clinicTodayStart,
  clinicWeekStart,
  formatClinicDateTime,
} from './clinic-time';

describe('clinic time', () => {
  it.each([
    ['03/10/2025', -6, '2025-03-10T06:00:00.000Z', '2025-03-11T06:00:00.000Z'],
    ['03/10/2025', 0, '2025-03-10T00:00:00.000Z', '2025-03-11T00:00:00.000Z'],
    ['03/10/2025', 5.5, '2025-03-09T18:30:00.000Z', '2025-03-10T18:30:00.000Z'],
    ['12/31/2024', -5, '2024-12-31T05:00:00.000Z', '2025-01-01T05:00:00.000Z'],
  ])('clinic day %s at UTC%s runs from %s to %s', (day, offset, start, end) => {
    expect(clinicDayStart(day, offset).toISOString()).toBe(start);
    expect(clinicDayEnd(day, offset).toISOString()).toBe(end);
  });

  it.each([
    // 03:00 UTC on a Wednesday is still Tuesday evening in Texas.
    ['2025-03-12T03:00:00Z', -6, '2025-03-11T06:00:00.000Z', '2025-03-09T06:00:00.000Z'],
    ['2025-03-12T07:00:00Z', -6, '2025-03-12T06:00:00.000Z', '2025-03-09T06:00:00.000Z'],
    // A Sunday morning starts its own week.
    ['2025-03-09T12:00:00Z', -6, '2025-03-09T06:00:00.000Z', '2025-03-09T06:00:00.000Z'],
    ['2025-03-08T23:00:00Z', 2, '2025-03-08T22:00:00.000Z', '2025-03-08T22:00:00.000Z'],
  ])('at %s (UTC%s) today starts %s and the week %s', (now, offset, today, week) => {
    expect(clinicTodayStart(new Date(now), offset).toISOString()).toBe(today);
    expect(clinicWeekStart(new Date(now), offset).toISOString()).toBe(week);
  });

  it.each([
    ['2025-03-10T05:30:00Z', -6, '03/09/2025 11:30 PM', '2025-03-09'],
    ['2025-03-10T06:05:00Z', -6, '03/10/2025 12:05 AM', '2025-03-10'],
    ['2025-03-10T18:00:00Z', -6, '03/10/2025 12:00 PM', '2025-03-10'],
    ['2025-07-04T14:07:00Z', 0, '07/04/2025 02:07 PM', '2025-07-04'],
  ])('%s at UTC%s reads %s', (instant, offset, text, iso) => {
    expect(formatClinicDateTime(new Date(instant), offset)).toBe(text);
    expect(clinicIsoDate(new Date(instant), offset)).toBe(iso);
  });
});
