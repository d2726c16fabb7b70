import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Answers, FormContent, FormLanguage, Scores } from '@pathwell/contracts/forms';
import { insuranceCardSides, type ConsentKind, type InsuranceCardSide, type IntakeWorkStep } from '@pathwell/contracts/intake';
import { instances, users } from './core';
import { appointments, patients } from './patients';
import { sameClinic } from './same-clinic';
import { bytea } from './admin';

const id = () => uuid('id').primaryKey().defaultRandom();

export interface IntakePlan {
  steps: IntakeWorkStep[];
  formCodes: number[];
  historyFormIds: string[];
  checkInFormIds: string[];
}
const instanceId = () =>
  uuid('instance_id')
    .notNull()
    .references(() => instances.id);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A clinic's custom form; its content lives in versions (decision 0018). */
export const customForms = pgTable(
  'custom_forms',
  {
    id: id(),
    instanceId: instanceId(),
    /** English title of the current version, kept here for lists and search. */
    title: text('title').notNull(),
    currentVersion: integer('current_version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (table) => [
    index('custom_forms_instance_idx').on(table.instanceId, table.title),
    unique('custom_forms_instance_id_key').on(table.instanceId, table.id),
  ],
);

/** Immutable once a response points at it; editing such a version creates the next one. */
export const customFormVersions = pgTable(
  'custom_form_versions',
  {
    id: id(),
    instanceId: instanceId(),
    customFormId: uuid('custom_form_id').notNull(),
    version: integer('version').notNull(),
    content: jsonb('content').$type<FormContent>().notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('custom_form_versions_form_version_key').on(table.customFormId, table.version),
    unique('custom_form_versions_instance_id_key').on(table.instanceId, table.id),
    sameClinic('custom_form_versions_form_fk', { instanceId: table.instanceId, column: table.customFormId }, customForms),
  ],
);

/**
 * Licensed item wording a System Manager imported for one clinic (ODI, NDI, PROMIS Global-10,
 * SOAPP-R ship with neutral labels). `definition` is validated against the instrument's structure.
 */
export const instrumentWordings = pgTable(
  'instrument_wordings',
  {
    id: id(),
    instanceId: instanceId(),
    formCode: smallint('form_code').notNull(),
    definition: jsonb('definition').notNull(),
    importedBy: uuid('imported_by').references(() => users.id),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('instrument_wordings_instance_form_key').on(table.instanceId, table.formCode)],
);

/** A patient link (decision 0016): the token is never stored, only its SHA-256 hash. */
export const patientLinks = pgTable(
  'patient_links',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id'),
    /**
     * 'form': one questionnaire or custom form; 'intake': the appointment's whole intake flow (decision 0032);
     * 'consent': consents to sign on their own, a shot consent or expired ones signed again (decision 0036);
     * 'closeAccount': the emailed confirmation of a patient's request to close their account (decision 0036);
     * 'painJournal': the pain journal between visits, /periodicvas (decision 0038).
     */
    kind: text('kind', { enum: ['form', 'intake', 'consent', 'closeAccount', 'painJournal'] })
      .notNull()
      .default('form'),
    formCode: smallint('form_code'),
    customFormId: uuid('custom_form_id'),
    /** Intake links: the steps and forms chosen when the link was made. */
    intakePlan: jsonb('intake_plan').$type<IntakePlan>(),
    /** Consent links: the consents the patient is asked to sign. */
    consentKinds: jsonb('consent_kinds').$type<ConsentKind[]>(),
    tokenHash: text('token_hash').notNull(),
    language: text('language', { enum: ['en', 'es'] }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifyFailures: smallint('verify_failures').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Hash of the access token issued after identity verification, and until when it is good. */
    accessTokenHash: text('access_token_hash'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
    /** The 6-digit code emailed instead of the identity check (decision 0035): hashed, once, 10 minutes. */
    emailCodeHash: text('email_code_hash'),
    emailCodeExpiresAt: timestamp('email_code_expires_at', { withTimezone: true }),
    emailCodeSentAt: timestamp('email_code_sent_at', { withTimezone: true }),
    emailCodeSends: smallint('email_code_sends').notNull().default(0),
    emailCodeAttempts: smallint('email_code_attempts').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When the patient first opened the link (the survey report's "opened"). */
    openedAt: timestamp('opened_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('patient_links_token_hash_key').on(table.tokenHash),
    uniqueIndex('patient_links_access_token_hash_key').on(table.accessTokenHash),
    index('patient_links_patient_idx').on(table.instanceId, table.patientId, table.createdAt),
    index('patient_links_instance_created_idx').on(table.instanceId, table.createdAt),
    check(
      'patient_links_one_form',
      sql`(${table.kind} = 'form' and (${table.formCode} is null) <> (${table.customFormId} is null)) or (${table.kind} = 'intake' and ${table.formCode} is null and ${table.customFormId} is null and ${table.appointmentId} is not null and ${table.intakePlan} is not null) or (${table.kind} = 'consent' and ${table.formCode} is null and ${table.customFormId} is null and ${table.consentKinds} is not null) or (${table.kind} in ('closeAccount', 'painJournal') and ${table.formCode} is null and ${table.customFormId} is null)`,
    ),
    index('patient_links_appointment_idx')
      .on(table.instanceId, table.appointmentId, table.createdAt)
      .where(sql`${table.appointmentId} is not null`),
    unique('patient_links_instance_id_key').on(table.instanceId, table.id),
    sameClinic('patient_links_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('patient_links_appointment_fk', { instanceId: table.instanceId, column: table.appointmentId }, appointments),
    sameClinic('patient_links_custom_form_fk', { instanceId: table.instanceId, column: table.customFormId }, customForms),
  ],
);

/** The answers a patient has given so far on a link, so a closed tab resumes where it left. */
export const formDrafts = pgTable(
  'form_drafts',
  {
    linkId: uuid('link_id').primaryKey(),
    instanceId: instanceId(),
    answers: jsonb('answers').$type<Answers>().notNull(),
    position: integer('position').notNull().default(0),
    language: text('language', { enum: ['en', 'es'] }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    sameClinic('form_drafts_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks).onDelete('cascade'),
  ],
);

/** A submitted form: answers, the server-computed scores, and exactly which version was answered. */
export const formResponses = pgTable(
  'form_responses',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id'),
    linkId: uuid('link_id'),
    formCode: smallint('form_code'),
    customFormVersionId: uuid('custom_form_version_id'),
    /** Instrument version string, or the custom form's version number as text. */
    version: text('version').notNull(),
    language: text('language', { enum: ['en', 'es'] }).notNull(),
    answers: jsonb('answers').$type<Answers>().notNull(),
    scores: jsonb('scores')
      .$type<Scores>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    headlineScore: numeric('headline_score', { precision: 9, scale: 4, mode: 'number' }),
    band: smallint('band'),
    /**
     * Why this response carries no score (decision 0067): `wordingNotLoaded` for a licensed form answered
     * before the clinic imported its wording (neutral labels, so its numbers mean nothing). Such a response
     * stores no derived score (scores `{}`, headline and band null); its raw answers are kept.
     */
    notScored: text('not_scored', { enum: ['wordingNotLoaded'] }),
    idempotencyKey: uuid('idempotency_key').notNull(),
    enteredBy: uuid('entered_by').references(() => users.id),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('form_responses_idempotency_key').on(table.instanceId, table.idempotencyKey),
    unique('form_responses_instance_id_key').on(table.instanceId, table.id),
    index('form_responses_patient_idx').on(table.instanceId, table.patientId, table.formCode, table.submittedAt),
    index('form_responses_appointment_idx').on(table.appointmentId),
    // The reports' lookups per patient (issue #14 §5, decisions 0046 and 0048): a patient's outcome responses
    // in time order with form, headline and id, so the first/next/latest response is an index-only read.
    index('form_responses_patient_time_idx')
      .on(table.patientId, table.submittedAt, table.formCode, table.instanceId, table.headlineScore, table.id)
      .where(sql`${table.formCode} is not null`),
    // The reports read a clinic's responses of one form across patients in time order (ties by id),
    // headline included: id and headline_score make that read index-only (data sandbox and spotlight,
    // decision 0044).
    index('form_responses_report_idx')
      .on(table.instanceId, table.formCode, table.patientId, table.submittedAt, table.id, table.headlineScore)
      .where(sql`${table.formCode} is not null`),
    check('form_responses_one_form', sql`(${table.formCode} is null) <> (${table.customFormVersionId} is null)`),
    sameClinic('form_responses_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('form_responses_appointment_fk', { instanceId: table.instanceId, column: table.appointmentId }, appointments),
    sameClinic('form_responses_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks),
    sameClinic(
      'form_responses_custom_form_version_fk',
      { instanceId: table.instanceId, column: table.customFormVersionId },
      customFormVersions,
    ),
  ],
);

/**
 * A safety item answered at or above its threshold in a response (instruments `criticalItems`, issue #24
 * §1, decision 0058): red on every staff screen until a Doctor or Admin acknowledges it.
 */
export const criticalFindings = pgTable(
  'critical_findings',
  {
    id: id(),
    instanceId: instanceId(),
    responseId: uuid('response_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id'),
    formCode: smallint('form_code').notNull(),
    /** The rule's key in the instruments package, e.g. `phq9-item9`. */
    ruleKey: text('rule_key').notNull(),
    itemId: text('item_id').notNull(),
    /** The answer code the patient gave. */
    answer: smallint('answer').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id),
  },
  (table) => [
    uniqueIndex('critical_findings_response_rule_key').on(table.instanceId, table.responseId, table.ruleKey),
    index('critical_findings_patient_idx').on(table.instanceId, table.patientId, table.createdAt),
    index('critical_findings_appointment_idx')
      .on(table.instanceId, table.appointmentId)
      .where(sql`${table.appointmentId} is not null`),
    check('critical_findings_acknowledged', sql`(${table.acknowledgedAt} is null) = (${table.acknowledgedBy} is null)`),
    sameClinic('critical_findings_response_fk', { instanceId: table.instanceId, column: table.responseId }, formResponses).onDelete(
      'cascade',
    ),
    sameClinic('critical_findings_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic(
      'critical_findings_appointment_fk',
      { instanceId: table.instanceId, column: table.appointmentId },
      appointments,
    ),
  ],
);

/**
 * The outcome forms assigned to one appointment. No row: the clinic's applicable forms (instance
 * setting `applicableForms`) apply; a row, even with an empty list, is the staff's explicit choice.
 */
export const appointmentProSets = pgTable(
  'appointment_pro_sets',
  {
    appointmentId: uuid('appointment_id').notNull(),
    instanceId: instanceId(),
    formCodes: smallint('form_codes').array().notNull(),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.appointmentId] }),
    sameClinic(
      'appointment_pro_sets_appointment_fk',
      { instanceId: table.instanceId, column: table.appointmentId },
      appointments,
    ),
  ],
);

/**
 * One step of an intake link as the patient left it: the answers (a draft until `completedAt`), or for
 * a form inside the flow (`formKey` 'pro-2', 'cf-<id>') its draft and, once submitted, its response.
 */
export const intakeEntries = pgTable(
  'intake_entries',
  {
    linkId: uuid('link_id').notNull(),
    instanceId: instanceId(),
    step: smallint('step').notNull(),
    /** '' for the step's own answers; the form's key for a form inside the step. */
    formKey: text('form_key').notNull().default(''),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    position: integer('position').notNull().default(0),
    language: text('language', { enum: ['en', 'es'] }).notNull(),
    responseId: uuid('response_id'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.linkId, table.step, table.formKey] }),
    sameClinic('intake_entries_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks).onDelete(
      'cascade',
    ),
    sameClinic('intake_entries_response_fk', { instanceId: table.instanceId, column: table.responseId }, formResponses),
  ],
);

/**
 * A signed consent: the exact text the patient read (so the version can never drift), the language,
 * the signature and when it lapses. The PDF is rendered from this row whenever staff open it.
 */
export const patientConsents = pgTable(
  'patient_consents',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id'),
    linkId: uuid('link_id'),
    kind: text('kind').$type<ConsentKind>().notNull(),
    title: text('title').notNull(),
    documentText: text('document_text').notNull(),
    /** sha256 of title and text (and of the clinic's uploaded file, when there is one). */
    documentVersion: text('document_version').notNull(),
    language: text('language').$type<FormLanguage>().notNull(),
    signatureImage: text('signature_image').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('patient_consents_patient_idx').on(table.instanceId, table.patientId, table.kind, table.signedAt),
    unique('patient_consents_link_kind_key').on(table.linkId, table.kind),
    sameClinic('patient_consents_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('patient_consents_appointment_fk', { instanceId: table.instanceId, column: table.appointmentId }, appointments),
    sameClinic('patient_consents_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks),
  ],
);

/**
 * Insurance card photos taken in the paperwork step (issue #12): front and back of the primary and the
 * secondary card, one row per side, replaced when the patient takes it again. The browser shrinks a
 * photo to a JPEG of at most 1600 px before sending it, so a row is a few hundred kilobytes.
 */
// The sides are named in contracts (the API and the patient page use them); the table keeps its names.
export { insuranceCardSides, type InsuranceCardSide };
export const intakeFiles = pgTable(
  'intake_files',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    linkId: uuid('link_id').notNull(),
    side: text('side', { enum: insuranceCardSides }).notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('intake_files_link_side_key').on(table.linkId, table.side),
    index('intake_files_patient_idx').on(table.instanceId, table.patientId, table.createdAt),
    sameClinic('intake_files_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('intake_files_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks),
  ],
);

/**
 * "Request portal access" (issue #12): someone holding a link whose identity check did not match asks
 * the clinic for help. What they typed is kept for staff to compare with the record; it is never shown
 * back on the open page.
 */
export const accessRequests = pgTable(
  'access_requests',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id'),
    linkId: uuid('link_id').notNull(),
    name: text('name').notNull(),
    dateOfBirth: text('date_of_birth'),
    contact: text('contact').notNull(),
    message: text('message'),
    createdAt: createdAt(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledBy: uuid('handled_by').references(() => users.id),
  },
  (table) => [
    index('access_requests_patient_idx').on(table.instanceId, table.patientId, table.createdAt),
    unique('access_requests_instance_id_key').on(table.instanceId, table.id),
    sameClinic('access_requests_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('access_requests_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks),
  ],
);
