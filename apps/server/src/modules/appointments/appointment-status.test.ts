import { describe, expect, it } from 'vitest';
import type { AppointmentStatusCode } from '@pathwell/contracts/appointments';
import { canDelete, canReschedule, refuseTransition } from './appointment-status';

const Checking_In = 1;
const Upcoming = 2;
const Completed = 3;
const No_Show = 4;
const past = new Date('2026-03-01T15:00:00Z');
const future = new Date('2026-03-01T17:00:00Z');
const now = new Date('2026-03-01T16:00:00Z');

const table: [from: AppointmentStatusCode, to: AppointmentStatusCode, expected: ReturnType<typeof refuseTransition>][] = [
  [Upcoming, Checking_In, null],
  [Upcoming, Completed, 'notAllowed'],
  [Upcoming, No_Show, null],
  [Checking_In, Upcoming, null],
  [Checking_In, Completed, null],
  [Checking_In, No_Show, 'notAllowed'],
  [Checking_In, Checking_In, 'notAllowed'],
  [Completed, Checking_In, 'notAllowed'],
  [Completed, Upcoming, 'notAllowed'],
  [Completed, No_Show, 'notAllowed'],
  [No_Show, Checking_In, 'notAllowed'],
  [No_Show, Upcoming, 'notAllowed'],
  [No_Show, Completed, 'notAllowed'],
];

describe('appointment status rules (decision 0013)', () => {
  it.each(table)('from %i to %i → %s (start time passed)', (from, to, expected) => {
    expect(refuseTransition(from, to, past, now)).toBe(expected);
  });

  it('no-show is refused before the start time', () => {
    expect(refuseTransition(Upcoming, No_Show, future, now)).toBe('notStartedYet');
  });

  it('only a completed appointment cannot be deleted', () => {
    expect([Checking_In, Upcoming, Completed, No_Show].map((status) => canDelete(status as AppointmentStatusCode))).toEqual([
      true,
      true,
      false,
      true,
    ]);
  });

  it('only an upcoming appointment can be moved', () => {
    expect([Checking_In, Upcoming, Completed, No_Show].map((status) => canReschedule(status as AppointmentStatusCode))).toEqual([
      false,
      true,
      false,
      false,
    ]);
  });
});
