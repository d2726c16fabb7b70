import { and, eq, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Appointment, AppointmentStatusCode, CreateAppointment, UpdateSchedule } from '@pathwell/contracts/appointments';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { RoleCode } from '@pathwell/contracts/roles';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, managedItems, userInstances, users } from '../../db/schema';
import { AppError, fieldError } from '../../lib/app-error';
import { actsAsDoctor, findVisiblePatient } from '../patients/patient-visibility.service';
import { canDelete, canReschedule } from './appointment-status';
import { appointmentActivity as audit, findVisibleAppointment, toAppointment } from './appointments.service';

const MINUTE_MS = 60_000;

/**
 * Patient, doctor (a Doctor of this clinic), room, appointment type and body locations must all
 * belong to the acting clinic. The patient is the record in the URL's sense and goes through the
 * reads' own lookup: a patient the actor cannot open (another clinic's, or for a Doctor another
 * doctor's or nobody's) is 404, never a booking that answers with their name (issue #9).
 */
async function checkReferences(db: Database, ctx: SignedInContext, input: CreateAppointment) {
  await findVisiblePatient(ctx, db, input.patientId);
  await checkDoctor(db, ctx, input.doctorId);
  const itemIds = [input.roomId, input.appointmentTypeId, ...input.bodyLocationIds].filter((id): id is string => Boolean(id));
  if (itemIds.length === 0) return;
  const items = await db
    .select({ id: managedItems.id, listType: managedItems.listType })
    .from(managedItems)
    .where(and(inArray(managedItems.id, itemIds), eq(managedItems.instanceId, ctx.instanceId), isNull(managedItems.deletedAt)));
  const typeOf = new Map(items.map((item) => [item.id, item.listType]));
  if (input.roomId && typeOf.get(input.roomId) !== 'rooms') throw fieldError('roomId', 'invalid', 'roomNotInClinic');
  if (input.appointmentTypeId && typeOf.get(input.appointmentTypeId) !== 'customfield:appointmenttype')
    throw fieldError('appointmentTypeId', 'invalid', 'appointmentTypeNotInClinic');
  if (input.bodyLocationIds.some((id) => typeOf.get(id) !== 'bodylocations'))
    throw fieldError('bodyLocationIds', 'invalid', 'bodyLocationNotInClinic');
}

async function checkDoctor(db: Database, ctx: SignedInContext, doctorId: string) {
  if (actsAsDoctor(ctx) && doctorId !== ctx.actor.userId) throw new AppError('FORBIDDEN', 'doctorsBookOwn');
  const [doctor] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userInstances, and(eq(userInstances.userId, users.id), eq(userInstances.instanceId, ctx.instanceId)))
    .where(and(eq(users.id, doctorId), eq(users.role, RoleCode.Doctor), isNull(users.deletedAt)));
  if (!doctor) throw fieldError('doctorId', 'invalid', 'doctorNotInClinic');
}

/**
 * Two live appointments (not deleted, not a no-show) overlap when each starts before the other ends.
 * The clinic-wide advisory lock makes the check and the write atomic against a concurrent booking.
 */
async function checkConflicts(
  db: Database,
  ctx: SignedInContext,
  slot: { id?: string; doctorId: string | null; roomId: string | null; startsAt: Date; durationMinutes: number },
) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`appointments:${ctx.instanceId}`}))`);
  const end = new Date(slot.startsAt.getTime() + slot.durationMinutes * MINUTE_MS);
  const sameResource: SQL[] = [];
  if (slot.doctorId) sameResource.push(eq(appointments.doctorId, slot.doctorId));
  if (slot.roomId) sameResource.push(eq(appointments.roomId, slot.roomId));
  if (sameResource.length === 0) return;
  const conditions: SQL[] = [
    eq(appointments.instanceId, ctx.instanceId),
    isNull(appointments.deletedAt),
    ne(appointments.status, AppointmentStatus.No_Show),
    lt(appointments.startsAt, end),
    sql`${appointments.startsAt} + ${appointments.durationMinutes} * interval '1 minute' > ${slot.startsAt.toISOString()}::timestamptz`,
    sql`(${sql.join(sameResource, sql` or `)})`,
  ];
  if (slot.id) conditions.push(ne(appointments.id, slot.id));
  const [clash] = await db
    .select({ doctorId: appointments.doctorId, roomId: appointments.roomId })
    .from(appointments)
    .where(and(...conditions))
    .limit(1);
  if (!clash) return;
  if (slot.doctorId && clash.doctorId === slot.doctorId) throw new AppError('CONFLICT', 'doctorBooked');
  throw new AppError('CONFLICT', 'roomBooked');
}

const rowValues = (input: CreateAppointment) => ({
  patientId: input.patientId,
  doctorId: input.doctorId,
  appointmentTypeId: input.appointmentTypeId,
  roomId: input.roomId,
  startsAt: new Date(input.startsAt),
  durationMinutes: input.durationMinutes,
  reason: input.reason,
  notes: input.notes,
  externalId: input.externalId,
  painScore: input.painScore,
  bodyLocationIds: input.bodyLocationIds,
});

/** POST (area 'Appointments') and POST schedule (area 'Appointment Schedules'): same rules, different log area. */
export async function createAppointment(
  ctx: SignedInContext,
  input: CreateAppointment,
  area: 'Appointments' | 'Appointment Schedules' = 'Appointments',
): Promise<Appointment> {
  const id = await ctx.db.transaction(async (tx) => {
    await checkReferences(tx, ctx, input);
    const values = rowValues(input);
    await checkConflicts(tx, ctx, values);
    const [created] = await tx
      .insert(appointments)
      .values({ ...values, instanceId: ctx.instanceId, status: AppointmentStatus.Upcoming })
      .returning({ id: appointments.id });
    await audit(tx, ctx, area, 'Created', created!.id, `Appointment created for patient ${input.patientId}`);
    return created!.id;
  });
  return toAppointment(await findVisibleAppointment(ctx.db, ctx, id));
}

export async function updateAppointment(ctx: SignedInContext, id: string, input: CreateAppointment): Promise<Appointment> {
  await ctx.db.transaction(async (tx) => {
    const current = await findVisibleAppointment(tx, ctx, id);
    if (current.status === AppointmentStatus.Completed || current.status === AppointmentStatus.No_Show)
      throw new AppError('CONFLICT', 'appointmentClosed');
    await checkReferences(tx, ctx, input);
    const values = rowValues(input);
    await checkConflicts(tx, ctx, { ...values, id });
    await tx
      .update(appointments)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(appointments.id, id), eq(appointments.instanceId, ctx.instanceId)));
    await audit(tx, ctx, 'Appointments', 'Updated', id, 'Appointment updated');
  });
  return toAppointment(await findVisibleAppointment(ctx.db, ctx, id));
}

export async function updateSchedule(ctx: SignedInContext, input: UpdateSchedule): Promise<Appointment> {
  await ctx.db.transaction(async (tx) => {
    const current = await findVisibleAppointment(tx, ctx, input.id);
    if (!canReschedule(current.status as AppointmentStatusCode)) throw new AppError('CONFLICT', 'moveOnlyUpcoming');
    const doctorId = input.doctorId ?? current.doctorId;
    if (input.doctorId) await checkDoctor(tx, ctx, input.doctorId);
    const roomId = input.roomId === undefined ? current.roomId : input.roomId;
    if (roomId) {
      const [found] = await tx
        .select({ id: managedItems.id })
        .from(managedItems)
        .where(
          and(
            eq(managedItems.id, roomId),
            eq(managedItems.instanceId, ctx.instanceId),
            eq(managedItems.listType, 'rooms'),
            isNull(managedItems.deletedAt),
          ),
        );
      if (!found) throw fieldError('roomId', 'invalid', 'roomNotInClinic');
    }
    const slot = {
      id: input.id,
      doctorId,
      roomId,
      startsAt: new Date(input.startsAt),
      durationMinutes: input.durationMinutes ?? current.durationMinutes,
    };
    await checkConflicts(tx, ctx, slot);
    await tx
      .update(appointments)
      .set({ doctorId, roomId, startsAt: slot.startsAt, durationMinutes: slot.durationMinutes, updatedAt: new Date() })
      .where(and(eq(appointments.id, input.id), eq(appointments.instanceId, ctx.instanceId)));
    await audit(tx, ctx, 'Appointment Schedules', 'Updated', input.id, 'Appointment moved');
  });
  return toAppointment(await findVisibleAppointment(ctx.db, ctx, input.id));
}

export async function deleteAppointment(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const current = await findVisibleAppointment(tx, ctx, id);
    if (!canDelete(current.status as AppointmentStatusCode)) throw new AppError('CONFLICT', 'completedNotDeletable');
    await tx
      .update(appointments)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(appointments.id, id), eq(appointments.instanceId, ctx.instanceId)));
    await audit(tx, ctx, 'Appointments', 'Deleted', id, 'Appointment deleted');
  });
}

export async function saveNote(ctx: SignedInContext, id: string, notes: string | null): Promise<Appointment> {
  await ctx.db.transaction(async (tx) => {
    await findVisibleAppointment(tx, ctx, id);
    await tx
      .update(appointments)
      .set({ notes, updatedAt: new Date() })
      .where(and(eq(appointments.id, id), eq(appointments.instanceId, ctx.instanceId)));
    await audit(tx, ctx, 'Appointments', 'Updated', id, 'Appointment note saved');
  });
  return toAppointment(await findVisibleAppointment(ctx.db, ctx, id));
}
