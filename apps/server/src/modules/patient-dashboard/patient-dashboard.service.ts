import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { PAIN_TREND_LIMIT, PATIENT_TIMELINE_LIMIT, type PatientDashboard } from '@pathwell/contracts/patient-dashboard';
import type { SignedInContext } from '../../context';
import { actsAsDoctor, patientsTreatedBy } from '../patients/patient-visibility.service';
import { reusableQuery } from '../../db/reusable-query';
import { appointments, instanceSettings, managedItems, patientPhoneNumbers, patients } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { listTotal } from '../../lib/list-total';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { clinicTimeZoneFrom } from '../settings/settings.service';
import { appointmentColumns, appointmentType, doctor, personName, room, toTimeline } from './dashboard-appointments';
import { notesOf } from './patient-notes.service';

/** Whole years between a YYYY-MM-DD birth date and a YYYY-MM-DD day. */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
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
