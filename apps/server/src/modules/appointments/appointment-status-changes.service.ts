import { and, eq } from 'drizzle-orm';
import type { Appointment, AppointmentStatusCode } from '@pathwell/contracts/appointments';
import { AppointmentStatus, type ActivityArea } from '@pathwell/contracts/enums';
import type { SignedInContext } from '../../context';
import { appointments } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { announce } from '../../lib/domain-events';
import { refuseTransition } from './appointment-status';
import { appointmentActivity as audit, findVisibleAppointment, toAppointment } from './appointments.service';

const MINUTE_MS = 60_000;

const refusalMessages = { notAllowed: 'statusChangeNotAllowed', notStartedYet: 'noShowBeforeStart' } as const;

/** Moves the status by the rules of decision 0013 and stamps what goes with it. */
async function transition(
  ctx: SignedInContext,
  id: string,
  to: AppointmentStatusCode,
  area: ActivityArea,
  description: string,
  now: Date,
): Promise<Appointment> {
  await ctx.db.transaction(async (tx) => {
    const current = await findVisibleAppointment(tx, ctx, id);
    const from = current.status as AppointmentStatusCode;
    const refusal = refuseTransition(from, to, current.startsAt, now);
    if (refusal) throw new AppError('CONFLICT', refusalMessages[refusal], { params: { from, to } });
    const stamps =
      to === AppointmentStatus.Checking_In
        ? { checkedInAt: now, checkInDelayedUntil: null }
        : to === AppointmentStatus.Upcoming
          ? { checkedInAt: null }
          : to === AppointmentStatus.Completed
            ? { completedAt: now }
            : {};
    await tx
      .update(appointments)
      .set({ status: to, ...stamps, updatedAt: now })
      .where(and(eq(appointments.id, id), eq(appointments.instanceId, ctx.instanceId)));
    await audit(tx, ctx, area, 'Updated', id, description);
    // Pathways listen: the patient's first completed visit starts the first-visit pathways (decision 0041).
    if (to === AppointmentStatus.Completed) {
      await announce(ctx, tx, 'visitCompleted', {
        appointmentId: current.id,
        patientId: current.patientId,
        startsAt: current.startsAt,
      });
    }
  });
  return toAppointment(await findVisibleAppointment(ctx.db, ctx, id));
}

export const checkIn = (ctx: SignedInContext, id: string, now = new Date()) =>
  transition(ctx, id, AppointmentStatus.Checking_In, 'Checkins', 'Patient checked in', now);

export const cancelCheckIn = (ctx: SignedInContext, id: string, now = new Date()) =>
  transition(ctx, id, AppointmentStatus.Upcoming, 'Checkins', 'Check-in cancelled', now);

export const setStatus = (ctx: SignedInContext, id: string, status: 3 | 4, now = new Date()) =>
  transition(
    ctx,
    id,
    status,
    'Appointments',
    status === AppointmentStatus.Completed ? 'Appointment completed' : 'Marked as no-show',
    now,
  );

/** The patient asked for more time before checking in: only an upcoming appointment can wait. */
export async function delayCheckIn(ctx: SignedInContext, id: string, minutes: number, now = new Date()): Promise<Appointment> {
  await ctx.db.transaction(async (tx) => {
    const current = await findVisibleAppointment(tx, ctx, id);
    if (current.status !== AppointmentStatus.Upcoming) throw new AppError('CONFLICT', 'delayOnlyUpcoming');
    await tx
      .update(appointments)
      .set({ checkInDelayedUntil: new Date(now.getTime() + minutes * MINUTE_MS), updatedAt: now })
      .where(and(eq(appointments.id, id), eq(appointments.instanceId, ctx.instanceId)));
    await audit(tx, ctx, 'Checkins', 'Updated', id, `Check-in delayed by ${minutes} minutes`);
  });
  return toAppointment(await findVisibleAppointment(ctx.db, ctx, id));
}
