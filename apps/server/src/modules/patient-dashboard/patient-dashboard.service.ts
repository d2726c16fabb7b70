import { and, asc, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AppointmentStatusCode } from '@pathwell/contracts/appointments';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import {
  CHECKING_IN_LIST_LIMIT,
  CLINIC_DAY_LIST_LIMIT,
  PAIN_TREND_LIMIT,
  PATIENT_TIMELINE_LIMIT,
  RECENT_COMPLETIONS_LIMIT,
  UPCOMING_DAYS,
  UPCOMING_LIST_LIMIT,
  type ClinicDashboard,
  type DashboardAppointment,
  type PatientDashboard,
  type PatientNote,
  type TimelineAppointment,
} from '@pathwell/contracts/patient-dashboard';
import { doctorScope, type SignedInContext } from '../../context';
import { actsAsDoctor, findVisiblePatient, patientsTreatedBy } from '../patients/patient-visibility.service';
import type { Database } from '../../db/client';
import { reusableQuery } from '../../db/reusable-query';
import {
  appointments,
  instanceSettings,
  managedItems,
  patientNotes,
  patientPhoneNumbers,
  patients,
  users,
} from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { listTotal } from '../../lib/list-total';
import { clinicDayStartAfter, clinicIsoDate, clinicTodayStart, clinicWeekStart } from '@pathwell/contracts/clinic-time';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicTimeZone, clinicTimeZoneFrom } from '../settings/settings.service';

const appointmentType = alias(managedItems, 'appointment_type');
const room = alias(managedItems, 'room');
const doctor = alias(users, 'doctor');
const author = alias(users, 'author');

const personName = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();
const fullName = (row: { firstName: string; middleName: string | null; lastName: string }) =>
  [row.firstName, row.middleName, row.lastName].filter(Boolean).join(' ');

/** Admins (and System Managers, who hold every Admin power) may change anyone's note; others only their own. */
const mayEditNote = (ctx: SignedInContext, authorUserId: string | null) =>
  authorUserId === ctx.actor.userId || ctx.actor.role === 'Admin' || ctx.actor.role === 'SystemManager';

/** Whole years between a YYYY-MM-DD birth date and a YYYY-MM-DD day. */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

const appointmentColumns = {
  id: appointments.id,
  startsAt: appointments.startsAt,
  durationMinutes: appointments.durationMinutes,
  status: appointments.status,
  typeName: appointmentType.name,
  roomName: room.name,
  doctorId: doctor.id,
  doctorFirstName: doctor.firstName,
  doctorLastName: doctor.lastName,
  painScore: appointments.painScore,
  reason: appointments.reason,
};

type AppointmentRow = {
  id: string;
  startsAt: Date;
  durationMinutes: number;
  status: number;
  typeName: string | null;
  roomName: string | null;
  doctorId: string | null;
  doctorFirstName: string | null;
  doctorLastName: string | null;
  painScore: number | null;
  reason: 'new_patient' | 'follow_up' | null;
};

const toTimeline = (row: AppointmentRow): TimelineAppointment => ({
  id: row.id,
  startsAt: row.startsAt.toISOString(),
  durationMinutes: row.durationMinutes,
  status: row.status as AppointmentStatusCode,
  typeName: row.typeName,
  roomName: row.roomName,
  doctor: row.doctorId ? { id: row.doctorId, name: personName(row.doctorFirstName, row.doctorLastName) } : null,
  painScore: row.painScore,
  reason: row.reason,
});

type NoteRow = typeof patientNotes.$inferSelect & { authorFirstName: string | null; authorLastName: string | null };

const toNote = (ctx: SignedInContext, row: NoteRow): PatientNote => ({
  id: row.id,
  body: row.body,
  author: row.authorUserId ? { id: row.authorUserId, name: personName(row.authorFirstName, row.authorLastName) } : null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  canEdit: mayEditNote(ctx, row.authorUserId),
});

const notesOfPatient = reusableQuery('patient_dashboard_notes', (db) =>
  db
    .select({ note: patientNotes, authorFirstName: author.firstName, authorLastName: author.lastName })
    .from(patientNotes)
    .leftJoin(author, eq(author.id, patientNotes.authorUserId))
    .where(
      and(eq(patientNotes.patientId, sql.placeholder('patientId')), eq(patientNotes.instanceId, sql.placeholder('instanceId'))),
    )
    .orderBy(desc(patientNotes.createdAt), desc(patientNotes.id)),
);

async function notesOf(db: Database, ctx: SignedInContext, patientId: string): Promise<PatientNote[]> {
  const rows = await notesOfPatient(db, { patientId, instanceId: ctx.instanceId });
  return rows.map((row) =>
    toNote(ctx, { ...row.note, authorFirstName: row.authorFirstName, authorLastName: row.authorLastName }),
  );
}

// The patient dashboard's reads run on every opening of a patient, so they are built once and sent as
// named statements (db/reusable-query.ts): all are lookups by patient and clinic, one plan fits every
// patient. Values arrive through the placeholders patientId, instanceId and doctorId.
const byPatient = <T extends { patientId: AnyPgColumn; instanceId: AnyPgColumn }>(table: T) =>
  and(eq(table.patientId, sql.placeholder('patientId')), eq(table.instanceId, sql.placeholder('instanceId')));

const dashboardPatientQuery = (doctorScoped: boolean) =>
  reusableQuery(doctorScoped ? 'patient_dashboard_patient_of_doctor' : 'patient_dashboard_patient', (db) => {
    const gender = alias(managedItems, 'gender');
    const referrer = alias(managedItems, 'referrer');
    return db
      .select({
        patient: patients,
        genderName: gender.name,
        referringProviderName: referrer.name,
        doctorFirstName: doctor.firstName,
        doctorLastName: doctor.lastName,
      })
      .from(patients)
      .leftJoin(gender, eq(gender.id, patients.genderId))
      .leftJoin(referrer, eq(referrer.id, patients.referringProviderId))
      .leftJoin(doctor, eq(doctor.id, patients.doctorId))
      .where(
        and(
          eq(patients.id, sql.placeholder('patientId')),
          eq(patients.instanceId, sql.placeholder('instanceId')),
          isNull(patients.deletedAt),
          doctorScoped
            ? inArray(patients.id, patientsTreatedBy(sql.placeholder('doctorId'), [sql.placeholder('instanceId')]))
            : undefined,
        ),
      );
  });
const dashboardPatient = { all: dashboardPatientQuery(false), ofDoctor: dashboardPatientQuery(true) };

const dashboardTimeZoneSettings = reusableQuery('patient_dashboard_time_zone', (db) =>
  db
    .select({ key: instanceSettings.configurationId, value: instanceSettings.configurationValue })
    .from(instanceSettings)
    .where(
      and(
        eq(instanceSettings.instanceId, sql.placeholder('instanceId')),
        inArray(instanceSettings.configurationId, ['timeZoneId', 'timeZoneOffsetHours']),
      ),
    ),
);

const dashboardPhones = reusableQuery('patient_dashboard_phones', (db) =>
  db
    .select()
    .from(patientPhoneNumbers)
    .where(byPatient(patientPhoneNumbers))
    .orderBy(desc(patientPhoneNumbers.isPrimary), asc(patientPhoneNumbers.createdAt)),
);

const timelineWhere = () => and(byPatient(appointments), isNull(appointments.deletedAt));

const dashboardTimeline = reusableQuery('patient_dashboard_timeline', (db) =>
  db
    .select(appointmentColumns)
    .from(appointments)
    .leftJoin(appointmentType, eq(appointmentType.id, appointments.appointmentTypeId))
    .leftJoin(room, eq(room.id, appointments.roomId))
    .leftJoin(doctor, eq(doctor.id, appointments.doctorId))
    .where(timelineWhere())
    .orderBy(desc(appointments.startsAt), desc(appointments.id))
    .limit(PATIENT_TIMELINE_LIMIT),
);

const dashboardPainTrend = reusableQuery('patient_dashboard_pain_trend', (db) =>
  db
    .select({ id: appointments.id, startsAt: appointments.startsAt, painScore: appointments.painScore })
    .from(appointments)
    .where(and(timelineWhere(), eq(appointments.status, AppointmentStatus.Completed), sql`${appointments.painScore} is not null`))
    .orderBy(desc(appointments.startsAt))
    .limit(PAIN_TREND_LIMIT),
);

/**
 * One patient's record at a glance, read in a constant number of queries, with the Viewed entry
 * written in the same transaction: a view that was not logged never happened.
 */
export async function patientDashboard(ctx: SignedInContext, patientId: string): Promise<PatientDashboard> {
  const doctorId = actsAsDoctor(ctx) ? ctx.actor.userId : null;
  const ids = { patientId, instanceId: ctx.instanceId };
  return ctx.db.transaction(async (tx) => {
    const [patient] = doctorId ? await dashboardPatient.ofDoctor(tx, { ...ids, doctorId }) : await dashboardPatient.all(tx, ids);
    if (!patient) throw notFound('patientNotFound');

    const zoneSettings = await dashboardTimeZoneSettings(tx, ids);
    const timeZone = clinicTimeZoneFrom(Object.fromEntries(zoneSettings.map((row) => [row.key, row.value])));
    const phones = await dashboardPhones(tx, ids);
    const timeline = await dashboardTimeline(tx, ids);
    const { totalRecords: appointmentsTotal } = await listTotal(
      tx,
      tx
        .select({ id: appointments.id })
        .from(appointments)
        .where(
          and(eq(appointments.patientId, patientId), eq(appointments.instanceId, ctx.instanceId), isNull(appointments.deletedAt)),
        ),
      { pageNumber: 0, pageSize: PATIENT_TIMELINE_LIMIT, rowsOnPage: timeline.length, exact: true },
    );
    const trend = await dashboardPainTrend(tx, ids);
    const notes = await notesOf(tx, ctx, patientId);

    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patientId,
        description: `Viewed the dashboard of patient ${patientId}`,
      }),
    );

    const row = patient.patient;
    return {
      demographics: {
        id: row.id,
        firstName: row.firstName,
        middleName: row.middleName,
        lastName: row.lastName,
        dateOfBirth: row.dateOfBirth,
        age: ageOn(row.dateOfBirth, clinicIsoDate(new Date(), timeZone)),
        genderName: patient.genderName,
        referralSource: row.referralSource,
        referringProviderName: patient.referringProviderName,
        diseaseStates: row.diseaseStates,
        psychiatricHistory: row.psychiatricHistory,
        surgicalHistory: row.surgicalHistory,
        email: row.email,
        streetAddress1: row.streetAddress1,
        streetAddress2: row.streetAddress2,
        city: row.city,
        state: row.state,
        zip: row.zip,
        enableEmail: row.enableEmail,
        enableText: row.enableText,
        optionalMessages: { email: row.outreachEmail, text: row.outreachText },
        preferredLanguage: row.preferredLanguage,
        doctor: row.doctorId ? { id: row.doctorId, name: personName(patient.doctorFirstName, patient.doctorLastName) } : null,
        status: row.status,
        archived: row.archivedAt !== null,
        archiveReason: row.archiveReason,
        accountClosed: row.accountClosedAt !== null,
        phones: phones.map((phone) => ({
          id: phone.id,
          phoneType: phone.phoneType,
          number: phone.number,
          contactName: phone.contactName,
          relation: phone.relation,
          isPrimary: phone.isPrimary,
        })),
      },
      appointments: timeline.map(toTimeline),
      appointmentsTotal,
      painTrend: trend
        .reverse()
        .map((point) => ({ appointmentId: point.id, startsAt: point.startsAt.toISOString(), painScore: point.painScore! })),
      // TODO(#5): the questionnaire issue fills this panel.
      notes,
    };
  });
}

export async function listNotes(ctx: SignedInContext, patientId: string): Promise<PatientNote[]> {
  return ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, patientId);
    const notes = await notesOf(tx, ctx, patientId);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Viewed', {
        type: 'patient',
        id: patientId,
        description: `Viewed the notes of patient ${patientId}`,
      }),
    );
    return notes;
  });
}

async function noteWithAuthor(db: Database, ctx: SignedInContext, noteId: string): Promise<PatientNote> {
  const [row] = await db
    .select({ note: patientNotes, authorFirstName: author.firstName, authorLastName: author.lastName })
    .from(patientNotes)
    .leftJoin(author, eq(author.id, patientNotes.authorUserId))
    .where(eq(patientNotes.id, noteId));
  if (!row) throw notFound('noteNotFound');
  return toNote(ctx, { ...row.note, authorFirstName: row.authorFirstName, authorLastName: row.authorLastName });
}

export async function createNote(ctx: SignedInContext, patientId: string, input: { body: string }): Promise<PatientNote> {
  return ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, patientId);
    const [created] = await tx
      .insert(patientNotes)
      .values({ instanceId: ctx.instanceId, patientId, authorUserId: ctx.actor.userId, body: input.body })
      .returning({ id: patientNotes.id });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Created', {
        type: 'patient note',
        id: created!.id,
        description: `Added a note to patient ${patientId}`,
      }),
    );
    return noteWithAuthor(tx, ctx, created!.id);
  });
}

/** The note of this patient in this clinic that the actor may change: 404 when unseen, 403 when not theirs. */
async function editableNote(db: Database, ctx: SignedInContext, patientId: string, noteId: string) {
  await findVisiblePatient(ctx, db, patientId);
  const [note] = await db
    .select({ id: patientNotes.id, authorUserId: patientNotes.authorUserId })
    .from(patientNotes)
    .where(and(eq(patientNotes.id, noteId), eq(patientNotes.patientId, patientId), eq(patientNotes.instanceId, ctx.instanceId)));
  if (!note) throw notFound('noteNotFound');
  if (!mayEditNote(ctx, note.authorUserId)) throw new AppError('FORBIDDEN', 'noteAuthorOnly');
  return note;
}

export async function updateNote(
  ctx: SignedInContext,
  patientId: string,
  noteId: string,
  input: { body: string },
): Promise<PatientNote> {
  return ctx.db.transaction(async (tx) => {
    await editableNote(tx, ctx, patientId, noteId);
    await tx.update(patientNotes).set({ body: input.body, updatedAt: new Date() }).where(eq(patientNotes.id, noteId));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Updated', {
        type: 'patient note',
        id: noteId,
        description: `Changed a note of patient ${patientId}`,
      }),
    );
    return noteWithAuthor(tx, ctx, noteId);
  });
}

export async function deleteNote(ctx: SignedInContext, patientId: string, noteId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await editableNote(tx, ctx, patientId, noteId);
    await tx.delete(patientNotes).where(eq(patientNotes.id, noteId));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Deleted', {
        type: 'patient note',
        id: noteId,
        description: `Deleted a note of patient ${patientId}`,
      }),
    );
  });
}

/**
 * The clinic's day (section 7 "Patient dashboard fetchAll(doctorId)"): six queries whatever the
 * clinic's size, and one Viewed entry since the lists carry patient names.
 */
export async function clinicDashboard(ctx: SignedInContext, query: { doctorId?: string }): Promise<ClinicDashboard> {
  const doctorId = doctorScope(ctx, query.doctorId);
  return ctx.db.transaction(async (tx) => {
    const timeZone = await clinicTimeZone(tx, ctx.instanceId);
    const now = new Date();
    const todayStart = clinicTodayStart(now, timeZone);
    const todayEnd = clinicDayStartAfter(todayStart, 1, timeZone);
    const upcomingEnd = clinicDayStartAfter(todayEnd, UPCOMING_DAYS, timeZone);
    const weekStart = clinicWeekStart(now, timeZone);
    const weekEnd = clinicDayStartAfter(weekStart, 7, timeZone);

    const inScope = and(
      eq(appointments.instanceId, ctx.instanceId),
      isNull(appointments.deletedAt),
      isNull(patients.deletedAt),
      doctorId ? eq(appointments.doctorId, doctorId) : undefined,
    );
    const list = (where: SQL | undefined, order: SQL[], limit: number) =>
      tx
        .select({
          ...appointmentColumns,
          checkedInAt: appointments.checkedInAt,
          completedAt: appointments.completedAt,
          patientId: patients.id,
          patientFirstName: patients.firstName,
          patientMiddleName: patients.middleName,
          patientLastName: patients.lastName,
          patientDateOfBirth: patients.dateOfBirth,
        })
        .from(appointments)
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .leftJoin(appointmentType, eq(appointmentType.id, appointments.appointmentTypeId))
        .leftJoin(room, eq(room.id, appointments.roomId))
        .leftJoin(doctor, eq(doctor.id, appointments.doctorId))
        .where(and(inScope, where))
        .orderBy(...order, asc(appointments.id))
        .limit(limit);
    /** How many appointments a list would show without its limit. */
    const totalOf = async (where: SQL | undefined, rows: unknown[], limit: number) =>
      (
        await listTotal(
          tx,
          tx
            .select({ id: appointments.id })
            .from(appointments)
            .innerJoin(patients, eq(patients.id, appointments.patientId))
            .where(and(inScope, where)),
          { pageNumber: 0, pageSize: limit, rowsOnPage: rows.length, exact: true },
        )
      ).totalRecords;

    const isToday = and(gte(appointments.startsAt, todayStart), lt(appointments.startsAt, todayEnd));
    const today = await list(isToday, [asc(appointments.startsAt)], CLINIC_DAY_LIST_LIMIT);
    const isUpcoming = and(
      eq(appointments.status, AppointmentStatus.Upcoming),
      gte(appointments.startsAt, todayEnd),
      lt(appointments.startsAt, upcomingEnd),
    );
    const upcoming = await list(isUpcoming, [asc(appointments.startsAt)], UPCOMING_LIST_LIMIT);
    const isCheckingIn = eq(appointments.status, AppointmentStatus.Checking_In);
    const checkingIn = await list(
      isCheckingIn,
      [sql`${appointments.checkedInAt} asc nulls last`, asc(appointments.startsAt)],
      CHECKING_IN_LIST_LIMIT,
    );
    const completions = await list(
      eq(appointments.status, AppointmentStatus.Completed),
      [sql`coalesce(${appointments.completedAt}, ${appointments.startsAt}) desc`],
      RECENT_COMPLETIONS_LIMIT,
    );
    const [activePatients] = await tx
      .select({ total: sql<number>`count(*)::int` })
      .from(patients)
      .where(
        and(
          eq(patients.instanceId, ctx.instanceId),
          isNull(patients.deletedAt),
          isNull(patients.archivedAt),
          isNull(patients.accountClosedAt),
          eq(patients.status, 'active'),
          doctorId ? eq(patients.doctorId, doctorId) : undefined,
        ),
      );
    const [noShows] = await tx
      .select({ total: sql<number>`count(*)::int` })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .where(
        and(
          inScope,
          eq(appointments.status, AppointmentStatus.No_Show),
          gte(appointments.startsAt, weekStart),
          lt(appointments.startsAt, weekEnd),
        ),
      );

    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patients dashboard',
        id: doctorId,
        description: doctorId ? `Viewed the patients dashboard of doctor ${doctorId}` : 'Viewed the patients dashboard',
      }),
    );

    type ListRow = (typeof today)[number];
    const toDashboard = (row: ListRow): DashboardAppointment => ({
      ...toTimeline(row),
      patient: {
        id: row.patientId,
        name: fullName({ firstName: row.patientFirstName, middleName: row.patientMiddleName, lastName: row.patientLastName }),
        dateOfBirth: row.patientDateOfBirth,
      },
      checkedInAt: row.checkedInAt?.toISOString() ?? null,
      completedAt: row.completedAt?.toISOString() ?? null,
    });
    return {
      counts: {
        activePatients: activePatients?.total ?? 0,
        appointmentsToday: await totalOf(isToday, today, CLINIC_DAY_LIST_LIMIT),
        checkedInNow: await totalOf(isCheckingIn, checkingIn, CHECKING_IN_LIST_LIMIT),
        noShowsThisWeek: noShows?.total ?? 0,
        upcoming: await totalOf(isUpcoming, upcoming, UPCOMING_LIST_LIMIT),
      },
      today: today.map(toDashboard),
      upcoming: upcoming.map(toDashboard),
      checkingIn: checkingIn.map(toDashboard),
      recentCompletions: completions.map(toDashboard),
    };
  });
}
