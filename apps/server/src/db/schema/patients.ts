import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instances, users } from './core';
import { managedItems } from './admin';
import { sameClinic } from './same-clinic';
import type { PatientCoverage } from '@pathwell/contracts/intake-record';

const id = () => uuid('id').primaryKey().defaultRandom();
const instanceId = () =>
  uuid('instance_id')
    .notNull()
    .references(() => instances.id);
const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
/** A reference to a managed list item; its composite foreign key is declared with `sameClinic`. */
const listItem = (name: string) => uuid(name);

/** The patient of specification section 3 "Patient (create/update payload)". */
export const patients = pgTable(
  'patients',
  {
    id: id(),
    instanceId: instanceId(),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    email: text('email'),
    rpmKey: text('rpm_key'),
    streetAddress1: text('street_address1'),
    streetAddress2: text('street_address2'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    /** Pounds; 0 when not given (section 3). */
    weight: numeric('weight', { precision: 6, scale: 1, mode: 'number' }).notNull().default(0),
    heightFeet: smallint('height_feet'),
    heightInches: smallint('height_inches'),
    /** Total inches, derived from feet and inches on every write. */
    height: numeric('height', { precision: 5, scale: 1, mode: 'number' }),
    genderId: listItem('gender_id'),
    maritalStatusId: listItem('marital_status_id'),
    ethnicityId: listItem('ethnicity_id'),
    occupationId: listItem('occupation_id'),
    payorStatusId: listItem('payor_status_id'),
    nicotineStatusId: integer('nicotine_status_id'),
    currentLawSuit: text('current_law_suit', { enum: ['yes', 'no'] }),
    historySubstanceAbuse: text('history_substance_abuse', { enum: ['yes', 'no'] }),
    agreementSignedDate: date('agreement_signed_date', { mode: 'string' }),
    doctorId: uuid('doctor_id').references(() => users.id),
    enableEmail: boolean('enable_email').notNull().default(true),
    enableText: boolean('enable_text').notNull().default(true),
    /**
     * Optional messages (campaigns), apart from care messages (`enableEmail` / `enableText`: the
     * patient's own forms and appointments). The intake's opt-in page sets these (decision 0065).
     */
    outreachEmail: boolean('outreach_email').notNull().default(true),
    outreachText: boolean('outreach_text').notNull().default(true),
    preferredLanguage: text('preferred_language', { enum: ['en', 'es'] })
      .notNull()
      .default('en'),
    /** Extended patient questions (sexual orientation, sex at birth, pronouns, communication preferences). */
    extended: jsonb('extended').$type<Record<string, unknown>>().notNull().default({}),
    /** Insurance (or self-pay) and pharmacy as the intake asks them, once on the record (decision 0056). */
    coverage: jsonb('coverage').$type<PatientCoverage>(),
    externalId: text('external_id'),
    /** How the patient came to the clinic: a `referralSources` code (reports, issue #14). */
    referralSource: smallint('referral_source'),
    /** The referring provider, an entry of the clinic's Referrals list. */
    referringProviderId: listItem('referring_provider_id'),
    /** Clinical history the data sandbox filters on: `diseaseStates`, `psychiatricHistory`, `surgicalHistory` codes. */
    diseaseStates: smallint('disease_states')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    psychiatricHistory: smallint('psychiatric_history')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    surgicalHistory: smallint('surgical_history')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    /** The patient's own words about their care; printed on the spotlight PDF only once they agreed to share it. */
    successStory: text('success_story'),
    successStorySharedAt: timestamp('success_story_shared_at', { withTimezone: true }),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    archiveReason: text('archive_reason'),
    accountClosedAt: timestamp('account_closed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /*
     * The last coded visit and the start of the last completed appointment (decision 0053): kept by
     * database triggers on coded_visits and appointments, never written by the app, so an audience's
     * "last visit before" is read beside the patient's other filters (the partial index
     * patients_audience_idx, written in migration 0023, covers them) instead of two passes over every
     * recent visit. The moment, not a clinic date, for appointments: a change of time zone needs no rewrite.
     */
    lastCodedVisit: date('last_coded_visit', { mode: 'string' }),
    lastCompletedVisitAt: timestamp('last_completed_visit_at', { withTimezone: true }),
    /** Lower-cased, accent-free "first last" for the top-bar search (trigram index). */
    searchName: text('search_name').generatedAlwaysAs(
      (): SQL =>
        sql`pathwell_fold(${patients.firstName} || ' ' || coalesce(${patients.middleName} || ' ', '') || ${patients.lastName})`,
    ),
    ...stamps,
  },
  (table) => [
    // One index per sort of the patient list, ending in the id that breaks ties (issue #10 §1); the last
    // name's serves the duplicate check too (last name and date of birth), its ties sorted in passing.
    index('patients_instance_created_idx').on(table.instanceId, table.createdAt, table.id),
    index('patients_instance_last_name_idx').on(table.instanceId, sql`lower(${table.lastName})`, table.dateOfBirth),
    index('patients_instance_first_name_idx').on(table.instanceId, sql`lower(${table.firstName})`, table.id),
    // Patient lists in folded-name order (the data sandbox drill-down pages through it, decision 0044).
    index('patients_instance_folded_name_idx').on(
      table.instanceId,
      sql`pathwell_fold(${table.lastName})`,
      sql`pathwell_fold(${table.firstName})`,
      table.id,
    ),
    index('patients_instance_birth_idx').on(table.instanceId, table.dateOfBirth, table.id),
    index('patients_instance_email_idx').on(table.instanceId, sql`lower(${table.email})`, table.id),
    index('patients_instance_doctor_idx').on(table.instanceId, table.doctorId),
    // Clinic first, so a search reads only its own clinic's entries however many clinics share the table.
    index('patients_instance_search_trgm_idx').using('gin', table.instanceId, sql`${table.searchName} gin_trgm_ops`),
    unique('patients_instance_id_key').on(table.instanceId, table.id),
    uniqueIndex('patients_instance_external_id_key')
      .on(table.instanceId, table.externalId)
      .where(sql`${table.externalId} is not null`),
    ...(
      [
        ['patients_gender_fk', table.genderId],
        ['patients_marital_status_fk', table.maritalStatusId],
        ['patients_ethnicity_fk', table.ethnicityId],
        ['patients_occupation_fk', table.occupationId],
        ['patients_payor_status_fk', table.payorStatusId],
        ['patients_referring_provider_fk', table.referringProviderId],
      ] as const
    ).map(([name, column]) => sameClinic(name, { instanceId: table.instanceId, column }, managedItems)),
  ],
);

/** Phone types: MOBILE 7, HOME 1, WORK 2 (section 3), emergency contact, guarantor, next of kin. */
export const patientPhoneNumbers = pgTable(
  'patient_phone_numbers',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    phoneType: smallint('phone_type').notNull(),
    number: text('number').notNull(),
    /** Digits only, for phone search. */
    digits: text('digits').notNull(),
    contactName: text('contact_name'),
    relation: text('relation'),
    isPrimary: boolean('is_primary').notNull().default(false),
    ...stamps,
  },
  (table) => [
    index('patient_phone_numbers_patient_idx').on(table.patientId),
    index('patient_phone_numbers_digits_idx').on(table.instanceId, table.digits),
    sameClinic('patient_phone_numbers_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients).onDelete(
      'cascade',
    ),
  ],
);

export const patientNotes = pgTable(
  'patient_notes',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    authorUserId: uuid('author_user_id').references(() => users.id),
    body: text('body').notNull(),
    ...stamps,
  },
  (table) => [
    index('patient_notes_patient_idx').on(table.patientId, table.createdAt),
    sameClinic('patient_notes_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients).onDelete(
      'cascade',
    ),
  ],
);

/** Appointment status codes of section 3: Checking_In 1, Upcoming 2, Completed 3, No_Show 4. */
export const appointments = pgTable(
  'appointments',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    doctorId: uuid('doctor_id').references(() => users.id),
    appointmentTypeId: listItem('appointment_type_id'),
    roomId: listItem('room_id'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    durationMinutes: smallint('duration_minutes').notNull().default(30),
    status: smallint('status').notNull().default(2),
    reason: text('reason', { enum: ['new_patient', 'follow_up'] }),
    notes: text('notes'),
    externalId: text('external_id'),
    /** Pain (VAS 0 no pain … 10 worst possible) reported for this visit. */
    painScore: smallint('pain_score'),
    bodyLocationIds: uuid('body_location_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Amount due for the visit in cents, shown on the intake's payment step. */
    amountDueCents: integer('amount_due_cents'),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    checkInDelayedUntil: timestamp('check_in_delayed_until', { withTimezone: true }),
    /** Wrong identity answers at the self check-in QR page (decision 0034); a run of them locks it for a while. */
    selfCheckInFailures: smallint('self_check_in_failures').notNull().default(0),
    selfCheckInLockedUntil: timestamp('self_check_in_locked_until', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...stamps,
  },
  (table) => [
    index('appointments_instance_starts_idx').on(table.instanceId, table.startsAt),
    // The appointment list's order and its count: live appointments only, read without the table.
    index('appointments_instance_live_starts_idx')
      .on(table.instanceId, table.startsAt, table.id)
      .where(sql`${table.deletedAt} is null`),
    index('appointments_patient_idx').on(table.patientId, table.startsAt),
    index('appointments_instance_doctor_starts_idx').on(table.instanceId, table.doctorId, table.startsAt),
    // The reports (issue #14 §5, decisions 0046–0048): a patient's live visits in time order with what the
    // reports read of them, so the first/latest visit per patient is an index-only lookup. Patient first:
    // row-level security's clinic test on a leading column would be costed as ten index descents.
    index('appointments_patient_live_idx')
      .on(
        table.patientId,
        table.startsAt,
        table.id,
        table.instanceId,
        table.status,
        table.painScore,
        table.reason,
        table.doctorId,
      )
      .where(sql`${table.deletedAt} is null`),
    // The reports' pass over a window's appointments (deleted ones too: office visits count them as
    // cancelled), read from the index alone.
    index('appointments_instance_window_idx').on(
      table.instanceId,
      table.startsAt,
      table.id,
      table.patientId,
      table.doctorId,
      table.appointmentTypeId,
      table.status,
      table.reason,
      table.painScore,
      table.deletedAt,
    ),
    unique('appointments_instance_id_key').on(table.instanceId, table.id),
    uniqueIndex('appointments_instance_external_id_key')
      .on(table.instanceId, table.externalId)
      .where(sql`${table.externalId} is not null`),
    sameClinic('appointments_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('appointments_type_fk', { instanceId: table.instanceId, column: table.appointmentTypeId }, managedItems),
    sameClinic('appointments_room_fk', { instanceId: table.instanceId, column: table.roomId }, managedItems),
  ],
);
