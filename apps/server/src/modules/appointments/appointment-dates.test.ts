import { describe, expect, it } from 'vitest';
import { DateFilterPreset, type DateFilterPresetValue } from '@pathwell/contracts/appointments';
import { appointmentDateWindow } from './appointment-dates';

// Wednesday 03/04/2026 02:30 UTC is still Tuesday 03/03/2026 20:30 in a clinic at UTC-6.
const now = new Date('2026-03-04T02:30:00Z');
const window = (dateFilter: DateFilterPresetValue, offsetHours: number, extra = {}) => {
  const { from, to } = appointmentDateWindow({ dateFilter, ...extra }, now, offsetHours);
  return [from.toISOString(), to.toISOString()];
};

describe('appointment date presets on the clinic calendar', () => {
  it('today for a UTC-6 clinic is its Tuesday, not the server’s Wednesday', () => {
    expect(window(DateFilterPreset.Today, -6)).toEqual(['2026-03-03T06:00:00.000Z', '2026-03-04T06:00:00.000Z']);
  });

  it('today for a UTC clinic is Wednesday', () => {
    expect(window(DateFilterPreset.Today, 0)).toEqual(['2026-03-04T00:00:00.000Z', '2026-03-05T00:00:00.000Z']);
  });

  it('tomorrow and yesterday are the neighbouring clinic days', () => {
    expect(window(DateFilterPreset.Tomorrow, -6)).toEqual(['2026-03-04T06:00:00.000Z', '2026-03-05T06:00:00.000Z']);
    expect(window(DateFilterPreset.Yesterday, -6)).toEqual(['2026-03-02T06:00:00.000Z', '2026-03-03T06:00:00.000Z']);
  });

  it('this week runs Sunday to Sunday in clinic time and last week is the seven days before', () => {
    expect(window(DateFilterPreset.ThisWeek, -6)).toEqual(['2026-03-01T06:00:00.000Z', '2026-03-08T06:00:00.000Z']);
    expect(window(DateFilterPreset.LastWeek, -6)).toEqual(['2026-02-22T06:00:00.000Z', '2026-03-01T06:00:00.000Z']);
  });

  it('this month and last month follow the clinic calendar with a half-hour offset', () => {
    expect(window(DateFilterPreset.ThisMonth, 5.5)).toEqual(['2026-02-28T18:30:00.000Z', '2026-03-31T18:30:00.000Z']);
    expect(window(DateFilterPreset.LastMonth, 5.5)).toEqual(['2026-01-31T18:30:00.000Z', '2026-02-28T18:30:00.000Z']);
  });

  it('on the clinic’s first of the month, this month starts that day even though UTC is still in the previous month', () => {
    const early = new Date('2026-02-28T20:00:00Z'); // 03/01/2026 01:30 at UTC+5:30
    const { from } = appointmentDateWindow({ dateFilter: DateFilterPreset.ThisMonth }, early, 5.5);
    expect(from.toISOString()).toBe('2026-02-28T18:30:00.000Z');
  });

  it('this year and last year', () => {
    expect(window(DateFilterPreset.ThisYear, -6)).toEqual(['2026-01-01T06:00:00.000Z', '2027-01-01T06:00:00.000Z']);
    expect(window(DateFilterPreset.LastYear, -6)).toEqual(['2025-01-01T06:00:00.000Z', '2026-01-01T06:00:00.000Z']);
  });

  it('a custom range includes both end days and a fixed date is one day', () => {
    expect(window(DateFilterPreset.CustomRange, -6, { startDate: '02/10/2026', endDate: '02/12/2026' })).toEqual([
      '2026-02-10T06:00:00.000Z',
      '2026-02-13T06:00:00.000Z',
    ]);
    expect(window(DateFilterPreset.FixedDate, -6, { fixedDate: '12/25/2026' })).toEqual([
      '2026-12-25T06:00:00.000Z',
      '2026-12-26T06:00:00.000Z',
    ]);
  });
});
