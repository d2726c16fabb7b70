import { afterEach, describe, expect, it } from 'vitest';
import {
  clinicDaysAgo,
  clinicToday,
  formatClinicDate,
  formatClinicDateTime,
  formatClinicRelative,
  formatClinicTime,
} from './dates';
import { i18n } from './i18n';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('clinic dates', () => {
  it.each([
    // Central time (UTC-6): 05:30 UTC is still the evening before.
    ['2025-03-10T05:30:00Z', 'Etc/GMT+6', '03/09/2025', '11:30 PM'],
    ['2025-03-10T06:00:00Z', 'Etc/GMT+6', '03/10/2025', '12:00 AM'],
    ['2025-03-10T18:05:00Z', 'Etc/GMT+6', '03/10/2025', '12:05 PM'],
    ['2025-12-31T23:59:00Z', 'UTC', '12/31/2025', '11:59 PM'],
    ['2025-12-31T23:59:00Z', 'Etc/GMT-1', '01/01/2026', '12:59 AM'],
    ['2025-06-01T00:15:00Z', 'Asia/Kolkata', '06/01/2025', '05:45 AM'],
  ])('%s in %s is %s %s on the clinic’s clock', (instant, zone, date, time) => {
    expect(formatClinicDate(instant, zone)).toBe(date);
    expect(formatClinicTime(instant, zone)).toBe(time);
    expect(formatClinicDateTime(instant, zone)).toBe(`${date} ${time}`);
  });

  it('ignores the browser’s own time zone: the same instant reads the same for every clinic offset given', () => {
    const instant = new Date('2025-03-10T15:00:00Z');
    expect(formatClinicDateTime(instant, 'Etc/GMT+5')).toBe('03/10/2025 10:00 AM');
    expect(formatClinicDateTime(instant.getTime(), 'Etc/GMT+5')).toBe('03/10/2025 10:00 AM');
    expect(formatClinicDateTime(instant.toISOString(), 'Etc/GMT+8')).toBe('03/10/2025 07:00 AM');
  });

  it('answers empty text for an unreadable instant', () => {
    expect(formatClinicDateTime('not a date', 'UTC')).toBe('');
    expect(formatClinicRelative('not a date', 'UTC')).toBe('');
    expect(clinicDaysAgo('not a date', 'UTC')).toBeNull();
  });

  it.each([
    // now = 03/10/2025 08:00 AM in Texas
    ['2025-03-10T06:00:00Z', 'Today at 12:00 AM'],
    ['2025-03-10T13:59:00Z', 'Today at 07:59 AM'],
    ['2025-03-10T05:59:00Z', 'Yesterday at 11:59 PM'],
    ['2025-03-09T06:00:00Z', 'Yesterday at 12:00 AM'],
    ['2025-03-09T05:59:00Z', '03/08/2025 11:59 PM'],
    ['2025-03-11T15:00:00Z', '03/11/2025 09:00 AM'],
  ])('with the clinic at 8 AM, %s reads "%s"', (instant, text) => {
    expect(formatClinicRelative(instant, 'Etc/GMT+6', '2025-03-10T14:00:00Z')).toBe(text);
  });

  it('"today" follows the clinic’s calendar, not UTC’s', () => {
    // 02:00 UTC on the 11th is 8 PM on the 10th in Texas.
    expect(formatClinicRelative('2025-03-10T20:00:00Z', 'Etc/GMT+6', '2025-03-11T02:00:00Z')).toBe('Today at 02:00 PM');
    expect(formatClinicRelative('2025-03-10T20:00:00Z', 'UTC', '2025-03-11T02:00:00Z')).toBe('Yesterday at 08:00 PM');
    expect(clinicToday('Etc/GMT+6', '2025-03-11T02:00:00Z')).toBe('03/10/2025');
  });

  it('follows daylight saving in a clinic on Chicago time: the same hour of UTC reads an hour later in summer', () => {
    expect(formatClinicDateTime('2025-01-15T15:00:00Z', 'America/Chicago')).toBe('01/15/2025 09:00 AM');
    expect(formatClinicDateTime('2025-07-15T15:00:00Z', 'America/Chicago')).toBe('07/15/2025 10:00 AM');
    // The night the clocks go back has two 01:30s; both are the same clinic day.
    expect(clinicDaysAgo('2025-11-02T06:30:00Z', 'America/Chicago', '2025-11-02T07:30:00Z')).toBe(0);
  });

  it('speaks Spanish when the user does', async () => {
    await i18n.changeLanguage('es');
    expect(formatClinicRelative('2025-03-10T13:00:00Z', 'Etc/GMT+6', '2025-03-10T14:00:00Z')).toBe('Hoy a las 07:00 AM');
    expect(formatClinicRelative('2025-03-09T13:00:00Z', 'Etc/GMT+6', '2025-03-10T14:00:00Z')).toBe('Ayer a las 07:00 AM');
  });
});
