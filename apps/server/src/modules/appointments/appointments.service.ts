import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
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
  type DaySchedule,
} from '@pathwell/contracts/appointments';
import { AppointmentStatus, type ActivityAction, type ActivityArea } from '@pathwell/contracts/enums';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, managedItems, patients, users } from '../../db/schema';
import { listTotal } from '../../lib/list-total';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicIsoDate, formatClinicDateTime } from '@pathwell/contracts/clinic-time';
import { toCsv } from '../../lib/csv';
import { findVisiblePatient, treatedByActor } from '../patients/patient-visibility.service';
import { clinicTimeZone } from '../settings/settings.service';
import { appointmentDateWindow } from '../../lib/clinic-dates';

const appointmentType = alias(managedItems, 'appointment_type');
const room = alias(managedItems, 'room');

export interface CsvFile {
  fileName: string;
  content: Buffer;
}

/** The activity entry of an appointment read or write (bookings and status changes write theirs with it too). */
export function appointmentActivity(
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

type AppointmentRow = Awaited<ReturnType<typeof selectAppointments>>[number];

export function toAppointment(row: AppointmentRow): Appointment {
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
export async function findVisibleAppointment(db: Database, ctx: SignedInContext, id: string): Promise<AppointmentRow> {
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
  await appointmentActivity(
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
  await appointmentActivity(ctx.db, ctx, 'Appointments', 'Viewed', undefined, `Viewed all appointments page ${query.pageNumber}`);
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
  await appointmentActivity(ctx.db, ctx, 'Appointments', 'Viewed', id, 'Viewed appointment');
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
  await appointmentActivity(ctx.db, ctx, 'Appointment Schedules', 'Viewed', undefined, `Viewed the schedule of ${date}`);
  return { date, data: rows.map(toAppointment) };
}

/** Decision 0013's status rules, published for the patient's own check-in (intake), which follows them as staff do. */
export { refuseTransition } from './appointment-status';

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
  if (row) await appointmentActivity(ctx.db, ctx, 'Appointments', 'Viewed', row.id, 'Viewed next appointment');
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
  await appointmentActivity(ctx.db, ctx, 'Appointments', 'Viewed', undefined, `Exported ${rows.length} appointments to CSV`);
  const stem = kind === 'noShow' ? 'no-show-appointments' : 'appointments';
  return { fileName: `${stem}-${clinicIsoDate(now, timeZone)}.csv`, content };
}
