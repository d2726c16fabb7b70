import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  APPOINTMENT_EXPORT_MAX_ROWS,
  appointmentCsvHeaders,
  appointmentReasonLabels,
  appointmentStatusLabels,
  DAY_SCHEDULE_MAX_ROWS,
  DateFilterPreset,
  PAIN_SCORE_MAX,
  PAIN_SCORE_MIN,
  type Appointment,
  type AppointmentExport,
  type AppointmentFilter,
  type AppointmentFilterFields,
  type AppointmentPage,
  type AppointmentStatusCode,
  type AppointmentStatuses,
  type CreateAppointment,
  type DaySchedule,
  type UpdateSchedule,
} from '@pathwell/contracts/appointments';
import { AppointmentStatus, type ActivityAction, type ActivityArea } from '@pathwell/contracts/enums';
import { RoleCode } from '@pathwell/contracts/roles';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, managedItems, patients, userInstances, users } from '../../db/schema';
import { listTotal } from '../../lib/list-total';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { announce } from '../../lib/domain-events';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicIsoDate, formatClinicDateTime } from '@pathwell/contracts/clinic-time';
import { toCsv } from '../../lib/csv';
import { actsAsDoctor, findVisiblePatient, treatedByActor } from '../patients/patient-visibility.service';
import { clinicTimeZone } from '../settings/settings.service';
import { appointmentDateWindow } from '../../lib/clinic-dates';
import { canDelete, canReschedule, refuseTransition } from './appointment-status';

const MINUTE_MS = 60_000;
const appointmentType = alias(managedItems, 'appointment_type');
const room = alias(managedItems, 'room');

export interface CsvFile {
  fileName: string;
  content: Buffer;
}

function audit(
  db: Database,
  ctx: SignedInContext,
  area: ActivityArea,
  action: ActivityAction,
  targetId: string | undefined,
  description: string,
) {
  return recordActivity(db, staffActivity(ctx, area, action, { type: 'appointment', id: targetId, description: description }));
}

/**
 * The clinic's live appointments the actor may see: for a Doctor, those of the patients they treat
 * (patient-visibility.service, decision 0070); `doctorId` narrows to one provider. A deleted patient's
 * appointments are deleted with them (patients.service deletePatient), so the scope needs no join.
 */
export function appointmentScope(ctx: SignedInContext, doctorId?: string): SQL[] {
  const conditions: SQL[] = [eq(appointments.instanceId, ctx.instanceId), isNull(appointments.deletedAt)];
  const treated = treatedByActor(ctx, appointments.patientId);
  if (treated) conditions.push(treated);
  if (doctorId) conditions.push(eq(appointments.doctorId, doctorId));
  return conditions;
}

const columns = {
  id: appointments.id,
  patientId: patients.id,
  firstName: patients.firstName,
  middleName: patients.middleName,
  lastName: patients.lastName,
  dateOfBirth: patients.dateOfBirth,
  doctorId: users.id,
  doctorFirstName: users.firstName,
  doctorLastName: users.lastName,
  typeId: appointmentType.id,
  typeName: appointmentType.name,
  roomId: room.id,
  roomName: room.name,
  startsAt: appointments.startsAt,
  durationMinutes: appointments.durationMinutes,
  status: appointments.status,
  reason: appointments.reason,
  notes: appointments.notes,
  externalId: appointments.externalId,
  painScore: appointments.painScore,
  bodyLocationIds: appointments.bodyLocationIds,
  checkedInAt: appointments.checkedInAt,
  checkInDelayedUntil: appointments.checkInDelayedUntil,
};

/** One query with its joins: patient, doctor, type and room names come along, never a query per row. */
export function selectAppointments(db: Database) {
  return db
    .select(columns)
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .leftJoin(users, eq(users.id, appointments.doctorId))
    .leftJoin(appointmentType, eq(appointmentType.id, appointments.appointmentTypeId))
    .leftJoin(room, eq(room.id, appointments.roomId));
}

type Row = Awaited<ReturnType<typeof selectAppointments>>[number];

function toAppointment(row: Row): Appointment {
  return {
    id: row.id,
    patient: {
      id: row.patientId,
      fullName: [row.firstName, row.middleName, row.lastName].filter(Boolean).join(' '),
      birthDate: row.dateOfBirth,
    },
    doctor: row.doctorId ? { id: row.doctorId, name: `${row.doctorFirstName ?? ''} ${row.doctorLastName ?? ''}`.trim() } : null,
    appointmentType: row.typeId ? { id: row.typeId, name: row.typeName ?? '' } : null,
    room: row.roomId ? { id: row.roomId, name: row.roomName ?? '' } : null,
    startsAt: row.startsAt.toISOString(),
    durationMinutes: row.durationMinutes,
    status: row.status as AppointmentStatusCode,
    reason: row.reason,
    notes: row.notes,
    externalId: row.externalId,
    painScore: row.painScore,
    bodyLocationIds: row.bodyLocationIds,
    checkedInAt: row.checkedInAt?.toISOString() ?? null,
    checkInDelayedUntil: row.checkInDelayedUntil?.toISOString() ?? null,
  };
}

function filterConditions(ctx: SignedInContext, filter: AppointmentFilterFields, timeZone: string, now: Date): SQL[] {
  const window = appointmentDateWindow(filter, now, timeZone);
  const conditions = [
    ...appointmentScope(ctx, filter.doctorId),
    gte(appointments.startsAt, window.from),
    lt(appointments.startsAt, window.to),
  ];
  // The full 0–10 range is the default and also keeps visits without a pain score.
  if (filter.painScoreMin > PAIN_SCORE_MIN || filter.painScoreMax < PAIN_SCORE_MAX) {
    conditions.push(gte(appointments.painScore, filter.painScoreMin), lte(appointments.painScore, filter.painScoreMax));
  }
  if (filter.bodyLocation) conditions.push(sql`${filter.bodyLocation}::uuid = any(${appointments.bodyLocationIds})`);
  if (filter.status !== undefined) conditions.push(eq(appointments.status, filter.status));
  if (filter.patientId) conditions.push(eq(appointments.patientId, filter.patientId));
  return conditions;
}

/** One appointment the actor may reach (this clinic, live, a Doctor's own), or 404. */
export async function findVisibleAppointment(db: Database, ctx: SignedInContext, id: string): Promise<Row> {
  const [row] = await selectAppointments(db)
    .where(and(eq(appointments.id, id), ...appointmentScope(ctx)))
    .limit(1);
  if (!row) throw notFound('appointmentNotFound');
  return row;
}

/** The appointments a filter matches, for counting: the scope holds no patient column, so no join. */
const matchingAppointments = (db: Database, where: SQL | undefined) =>
  db.select({ id: appointments.id }).from(appointments).where(where);

export async function listAppointments(
  ctx: SignedInContext,
  filter: AppointmentFilter,
  now = new Date(),
): Promise<AppointmentPage> {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const where = and(...filterConditions(ctx, filter, timeZone, now));
  const { pageSize, pageNumber, exactTotal } = filter.paginationFilter;
  const rows = await selectAppointments(ctx.db)
    .where(where)
    .orderBy(asc(appointments.startsAt), asc(appointments.id))
    .limit(pageSize)
    .offset(pageNumber * pageSize);
  const total = await listTotal(ctx.db, matchingAppointments(ctx.db, where), {
    pageNumber,
    pageSize,
    rowsOnPage: rows.length,
    exact: exactTotal,
  });
  await audit(
    ctx.db,
    ctx,
    'Appointments',
    'Viewed',
    undefined,
    `Viewed appointment list page ${pageNumber} (${rows.length} rows)`,
  );
  return { ...total, pageNumber, pageSize, data: rows.map(toAppointment), message: '' };
}

/** GET all: every appointment of the clinic (the Doctor's own), newest first, paged. */
export async function listAllAppointments(
  ctx: SignedInContext,
  query: { pageSize: number; pageNumber: number; doctorId?: string },
): Promise<AppointmentPage> {
  const where = and(...appointmentScope(ctx, query.doctorId));
  const rows = await selectAppointments(ctx.db)
    .where(where)
    .orderBy(desc(appointments.startsAt), desc(appointments.id))
    .limit(query.pageSize)
    .offset(query.pageNumber * query.pageSize);
  const total = await listTotal(ctx.db, matchingAppointments(ctx.db, where), {
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    rowsOnPage: rows.length,
  });
  await audit(ctx.db, ctx, 'Appointments', 'Viewed', undefined, `Viewed all appointments page ${query.pageNumber}`);
  return {
    ...total,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    data: rows.map(toAppointment),
    message: '',
  };
}

export async function getAppointment(ctx: SignedInContext, id: string): Promise<Appointment> {
  const row = await findVisibleAppointment(ctx.db, ctx, id);
  await audit(ctx.db, ctx, 'Appointments', 'Viewed', id, 'Viewed appointment');
  return toAppointment(row);
}

/** One clinic day (default: the clinic's today), for the staff schedule by provider and room. */
export async function daySchedule(
  ctx: SignedInContext,
  query: { date?: string; doctorId?: string },
  now = new Date(),
): Promise<DaySchedule> {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const iso = clinicIsoDate(now, timeZone);
  const date = query.date ?? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
  const window = appointmentDateWindow({ dateFilter: DateFilterPreset.FixedDate, fixedDate: date }, now, timeZone);
  const rows = await selectAppointments(ctx.db)
    .where(
      and(
        ...appointmentScope(ctx, query.doctorId),
        gte(appointments.startsAt, window.from),
        lt(appointments.startsAt, window.to),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id))
    .limit(DAY_SCHEDULE_MAX_ROWS);
  await audit(ctx.db, ctx, 'Appointment Schedules', 'Viewed', undefined, `Viewed the schedule of ${date}`);
  return { date, data: rows.map(toAppointment) };
}

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

/** Decision 0013's status rules, published for the patient's own check-in (intake), which follows them as staff do. */
export { refuseTransition } from './appointment-status';

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

/** Ids the caller may not see are simply absent from the answer. */
export async function getStatuses(ctx: SignedInContext, ids: string[]): Promise<AppointmentStatuses> {
  const rows = await ctx.db
    .select({ id: appointments.id, status: appointments.status })
    .from(appointments)
    .innerJoin(patients, eq(patients.id, appointments.patientId))
    .where(and(inArray(appointments.id, ids), ...appointmentScope(ctx)));
  return rows.map((row) => ({ id: row.id, status: row.status as AppointmentStatusCode }));
}

export async function nextAppointment(ctx: SignedInContext, patientId: string, now = new Date()): Promise<Appointment | null> {
  await findVisiblePatient(ctx, ctx.db, patientId);
  const [row] = await selectAppointments(ctx.db)
    .where(
      and(
        ...appointmentScope(ctx),
        eq(appointments.patientId, patientId),
        gte(appointments.startsAt, now),
        inArray(appointments.status, [AppointmentStatus.Upcoming, AppointmentStatus.Checking_In]),
      ),
    )
    .orderBy(asc(appointments.startsAt))
    .limit(1);
  if (row) await audit(ctx.db, ctx, 'Appointments', 'Viewed', row.id, 'Viewed next appointment');
  return row ? toAppointment(row) : null;
}

const mdy = (isoDate: string) => `${isoDate.slice(5, 7)}/${isoDate.slice(8, 10)}/${isoDate.slice(0, 4)}`;

/** CSV of the filtered list (no paging); the no-show export forces status No_Show. */
export async function exportAppointments(
  ctx: SignedInContext,
  input: AppointmentExport,
  kind: 'all' | 'noShow',
  now = new Date(),
): Promise<CsvFile> {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const filter = kind === 'noShow' ? { ...input, status: AppointmentStatus.No_Show } : input;
  const rows = await selectAppointments(ctx.db)
    .where(and(...filterConditions(ctx, filter, timeZone, now)))
    .orderBy(asc(appointments.startsAt), asc(appointments.id))
    .limit(APPOINTMENT_EXPORT_MAX_ROWS + 1);
  if (rows.length > APPOINTMENT_EXPORT_MAX_ROWS)
    throw new AppError('VALIDATION', 'appointmentExportTooLarge', { params: { max: APPOINTMENT_EXPORT_MAX_ROWS } });
  const language = input.language;
  const content = toCsv(
    appointmentCsvHeaders[language],
    rows
      .map(toAppointment)
      .map((item) => [
        item.patient.fullName,
        mdy(item.patient.birthDate),
        item.doctor?.name ?? '',
        item.appointmentType?.name ?? '',
        item.room?.name ?? '',
        formatClinicDateTime(new Date(item.startsAt), timeZone),
        String(item.durationMinutes),
        appointmentStatusLabels[item.status][language],
        item.reason ? appointmentReasonLabels[item.reason][language] : '',
        item.painScore === null ? '' : String(item.painScore),
        item.externalId ?? '',
      ]),
  );
  await audit(ctx.db, ctx, 'Appointments', 'Viewed', undefined, `Exported ${rows.length} appointments to CSV`);
  const stem = kind === 'noShow' ? 'no-show-appointments' : 'appointments';
  return { fileName: `${stem}-${clinicIsoDate(now, timeZone)}.csv`, content };
}
