import { describe, expect, it } from 'vitest';
import { DateFilterPreset, type DateFilterPresetValue } from '@pathwell/contracts/appointments';
import { appointmentDateWindow } from './clinic-dates';

const CHICAGO = 'America/Chicago';
const KOLKATA = 'Asia/Kolkata';

// Wednesday 03/04/2026 02:30 UTC is still Tuesday 03/03/2026 20:30 in a clinic in Chicago (CST, UTC−6).
const now = new Date('2026-03-04T02:30:00Z');
const window = (dateFilter: DateFilterPresetValue, timeZone: string, extra = {}, at = now) => {
  const { from, to } = appointmentDateWindow({ dateFilter, ...extra }, at, timeZone);
  return [from.toISOString(), to.toISOString()];
};

describe('appointment date presets on the clinic calendar', () => {
  it('across the spring change (Sunday 03/08/2026) the week keeps its clinic midnights: 167 hours', () => {
    const tuesdayAfter = new Date('2026-03-10T12:00:00Z');
    expect(window(DateFilterPreset.ThisWeek, CHICAGO, {}, tuesdayAfter)).toEqual([
      '2026-03-08T06:00:00.000Z',
      '2026-03-15T05:00:00.000Z',
    ]);
    expect(window(DateFilterPreset.Today, CHICAGO, {}, tuesdayAfter)).toEqual([
      '2026-03-10T05:00:00.000Z',
      '2026-03-11T05:00:00.000Z',
    ]);
    expect(window(DateFilterPreset.Yesterday, CHICAGO, {}, tuesdayAfter)).toEqual([
      '2026-03-09T05:00:00.000Z',
      '2026-03-10T05:00:00.000Z',
    ]);
  });

  it('a fixed date on the autumn change (11/01/2026) is 25 hours long', () => {
    expect(window(DateFilterPreset.FixedDate, CHICAGO, { fixedDate: '11/01/2026' })).toEqual([
      '2026-11-01T05:00:00.000Z',
      '2026-11-02T06:00:00.000Z',
    ]);
  });

  it('today for a UTC-6 clinic is its Tuesday, not the server’s Wednesday', () => {
    expect(window(DateFilterPreset.Today, CHICAGO)).toEqual(['2026-03-03T06:00:00.000Z', '2026-03-04T06:00:00.000Z']);
  });

  it('today for a UTC clinic is Wednesday', () => {
    expect(window(DateFilterPreset.Today, 'UTC')).toEqual(['2026-03-04T00:00:00.000Z', '2026-03-05T00:00:00.000Z']);
  });

  it('tomorrow and yesterday are the neighbouring clinic days', () => {
    expect(window(DateFilterPreset.Tomorrow, CHICAGO)).toEqual(['2026-03-04T06:00:00.000Z', '2026-03-05T06:00:00.000Z']);
    expect(window(DateFilterPreset.Yesterday, CHICAGO)).toEqual(['2026-03-02T06:00:00.000Z', '2026-03-03T06:00:00.000Z']);
  });

  it('this week runs Sunday to Sunday in clinic time and last week is the seven days before', () => {
    expect(window(DateFilterPreset.ThisWeek, CHICAGO)).toEqual(['2026-03-01T06:00:00.000Z', '2026-03-08T06:00:00.000Z']);
    expect(window(DateFilterPreset.LastWeek, CHICAGO)).toEqual(['2026-02-22T06:00:00.000Z', '2026-03-01T06:00:00.000Z']);
  });

  it('this month and last month follow the clinic calendar with a half-hour offset', () => {
    expect(window(DateFilterPreset.ThisMonth, KOLKATA)).toEqual(['2026-02-28T18:30:00.000Z', '2026-03-31T18:30:00.000Z']);
    expect(window(DateFilterPreset.LastMonth, KOLKATA)).toEqual(['2026-01-31T18:30:00.000Z', '2026-02-28T18:30:00.000Z']);
  });

  it('on the clinic’s first of the month, this month starts that day even though UTC is still in the previous month', () => {
    const early = new Date('2026-02-28T20:00:00Z'); // 03/01/2026 01:30 at UTC+5:30
    const { from } = appointmentDateWindow({ dateFilter: DateFilterPreset.ThisMonth }, early, KOLKATA);
    expect(from.toISOString()).toBe('2026-02-28T18:30:00.000Z');
  });

  it('this year and last year', () => {
    expect(window(DateFilterPreset.ThisYear, CHICAGO)).toEqual(['2026-01-01T06:00:00.000Z', '2027-01-01T06:00:00.000Z']);
    expect(window(DateFilterPreset.LastYear, CHICAGO)).toEqual(['2025-01-01T06:00:00.000Z', '2026-01-01T06:00:00.000Z']);
  });

  it('a custom range includes both end days and a fixed date is one day', () => {
    expect(window(DateFilterPreset.CustomRange, CHICAGO, { startDate: '02/10/2026', endDate: '02/12/2026' })).toEqual([
      '2026-02-10T06:00:00.000Z',
      '2026-02-13T06:00:00.000Z',
    ]);
    expect(window(DateFilterPreset.FixedDate, CHICAGO, { fixedDate: '12/25/2026' })).toEqual([
      '2026-12-25T06:00:00.000Z',
      '2026-12-26T06:00:00.000Z',
    ]);
  });
});
