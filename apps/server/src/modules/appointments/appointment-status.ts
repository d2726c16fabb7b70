import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { AppointmentStatusCode } from '@pathwell/contracts/appointments';

/**
 * Status rules of docs/decisions/0013-appointment-status-rules.md, as one table: from each status,
 * the statuses it may move to. Completed and No_Show are final.
 */
const allowed: Record<AppointmentStatusCode, readonly AppointmentStatusCode[]> = {
  [AppointmentStatus.Upcoming]: [AppointmentStatus.Checking_In, AppointmentStatus.No_Show],
  [AppointmentStatus.Checking_In]: [AppointmentStatus.Upcoming, AppointmentStatus.Completed],
  [AppointmentStatus.Completed]: [],
  [AppointmentStatus.No_Show]: [],
};

type TransitionRefusal = 'notAllowed' | 'notStartedYet';

/** Why a move is refused, or null when it is allowed. No_Show also needs the start time to have passed. */
export function refuseTransition(
  from: AppointmentStatusCode,
  to: AppointmentStatusCode,
  startsAt: Date,
  now: Date,
): TransitionRefusal | null {
  if (!allowed[from].includes(to)) return 'notAllowed';
  if (to === AppointmentStatus.No_Show && startsAt.getTime() > now.getTime()) return 'notStartedYet';
  return null;
}

/** A completed visit is part of the clinical record; it may not be deleted. */
export const canDelete = (status: AppointmentStatusCode) => status !== AppointmentStatus.Completed;

/** Moving an appointment in time only makes sense before the patient arrives. */
export const canReschedule = (status: AppointmentStatusCode) => status === AppointmentStatus.Upcoming;
