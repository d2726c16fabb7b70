import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AudienceRule } from '@pathwell/contracts/outreach';
import {
  audienceTemplateKinds,
  campaignStatuses,
  hotlistOutcomes,
  hotlistStatuses,
  recipientChannelStatuses,
  visitCodeKinds,
} from '@pathwell/contracts/outreach';
import { instances, users } from './core';
import { bytea } from './admin';
import { patients } from './patients';
import { visitRecords } from './care';
import { outboxMessages } from './messaging';
import { sameClinic } from './same-clinic';

/*
 * Outreach (issue #15, decision 0049): coded visits (recorded in Pathwell or imported), code groups,
 * audience templates, campaigns with their frozen recipients, inbound texts, and hot lists. Every
 * table carries the clinic and is under row-level security.
 */

const id = () => uuid('id').primaryKey().defaultRandom();
const instanceId = () =>
  uuid('instance_id')
    .notNull()
    .references(() => instances.id);
const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
const at = (name: string) => timestamp(name, { withTimezone: true });

/** A named, reusable set of codes ("lumbar radiculopathy": M54.16, M54.17, M51.16). */
export const codeGroups = pgTable(
  'code_groups',
  {
    id: id(),
    instanceId: instanceId(),
    name: text('name').notNull(),
    codes: text('codes').array().notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    deletedAt: at('deleted_at'),
    ...stamps,
  },
  (table) => [
    uniqueIndex('code_groups_name_key')
      .on(table.instanceId, sql`lower(${table.name})`)
      .where(sql`${table.deletedAt} is null`),
  ],
);

export const encounterImportStatuses = ['queued', 'running', 'done', 'failed'] as const;

/**
 * One CSV of encounters from the clinic's practice-management or EHR system, and its log. The file is
 * kept encrypted only until the import job has read it.
 */
export const encounterImports = pgTable(
  'encounter_imports',
  {
    id: id(),
    instanceId: instanceId(),
    fileName: text('file_name').notNull(),
    status: text('status', { enum: encounterImportStatuses }).notNull().default('queued'),
    /** Which CSV column holds each field (the user's column mapping). */
    mapping: jsonb('mapping').$type<Record<string, string | null>>().notNull(),
    totalRows: integer('total_rows').notNull().default(0),
    processedRows: integer('processed_rows').notNull().default(0),
    importedRows: integer('imported_rows').notNull().default(0),
    duplicateRows: integer('duplicate_rows').notNull().default(0),
    errorRows: integer('error_rows').notNull().default(0),
    /** The first row errors: `{ row, field, message }` (the CSV's line number, 1 = the header). */
    errors: jsonb('errors')
      .$type<{ row: number; field: string; message: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    content: bytea('content'),
    failure: text('failure'),
    createdBy: uuid('created_by').references(() => users.id),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
    ...stamps,
  },
  (table) => [
    index('encounter_imports_instance_idx').on(table.instanceId, table.createdAt),
    unique('encounter_imports_instance_id_key').on(table.instanceId, table.id),
  ],
);

export const codedVisitSources = ['pathwell', 'import'] as const;

/**
 * One visit with its diagnosis and procedure codes: a Pathwell visit record's codes (kept in step when
 * the record is saved) or an imported encounter. `dedupeKey` makes the same encounter imported twice
 * one row: `record:<visit record id>`, `ext:<external visit id>`, or patient, date, provider and codes.
 */
export const codedVisits = pgTable(
  'coded_visits',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    visitDate: date('visit_date', { mode: 'string' }).notNull(),
    providerId: uuid('provider_id').references(() => users.id),
    providerName: text('provider_name'),
    source: text('source', { enum: codedVisitSources }).notNull(),
    visitRecordId: uuid('visit_record_id'),
    importId: uuid('import_id'),
    externalVisitId: text('external_visit_id'),
    dedupeKey: text('dedupe_key').notNull(),
    codes: text('codes').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('coded_visits_dedupe_key').on(table.instanceId, table.dedupeKey),
    unique('coded_visits_instance_id_key').on(table.instanceId, table.id),
    index('coded_visits_patient_idx').on(table.instanceId, table.patientId, table.visitDate),
    index('coded_visits_import_idx')
      .on(table.instanceId, table.importId)
      .where(sql`${table.importId} is not null`),
    sameClinic('coded_visits_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients).onDelete(
      'cascade',
    ),
    sameClinic(
      'coded_visits_visit_record_fk',
      { instanceId: table.instanceId, column: table.visitRecordId },
      visitRecords,
    ).onDelete('cascade'),
    sameClinic('coded_visits_import_fk', { instanceId: table.instanceId, column: table.importId }, encounterImports),
  ],
);

/**
 * One code of a coded visit, with the visit's patient, date and provider copied beside it: an audience
 * is answered from this table's (clinic, code, date, patient) index alone (decision 0049).
 */
export const codedVisitCodes = pgTable(
  'coded_visit_codes',
  {
    instanceId: instanceId(),
    codedVisitId: uuid('coded_visit_id').notNull(),
    code: text('code').notNull(),
    kind: text('kind', { enum: visitCodeKinds }).notNull(),
    patientId: uuid('patient_id').notNull(),
    visitDate: date('visit_date', { mode: 'string' }).notNull(),
    providerId: uuid('provider_id'),
  },
  (table) => [
    primaryKey({ name: 'coded_visit_codes_pkey', columns: [table.codedVisitId, table.code] }),
    index('coded_visit_codes_lookup_idx').on(table.instanceId, table.code, table.visitDate, table.patientId),
    sameClinic('coded_visit_codes_visit_fk', { instanceId: table.instanceId, column: table.codedVisitId }, codedVisits).onDelete(
      'cascade',
    ),
  ],
);

/**
 * Per patient and code: the first and last visit with that code and how many (decision 0053). Kept by
 * the database itself — triggers on `coded_visits` recompute the rows of every patient a statement
 * touched, cascades included — so an audience without a date window or a provider groups one row per
 * patient and code instead of every coded visit. No reference to `patients`: a hard-deleted patient's
 * visits are deleted by cascade and the trigger then removes the marks itself.
 */
export const patientCodeMarks = pgTable(
  'patient_code_marks',
  {
    instanceId: uuid('instance_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    code: text('code').notNull(),
    firstVisit: date('first_visit', { mode: 'string' }).notNull(),
    lastVisit: date('last_visit', { mode: 'string' }).notNull(),
    visits: integer('visits').notNull(),
  },
  (table) => [
    primaryKey({ name: 'patient_code_marks_pkey', columns: [table.instanceId, table.patientId, table.code] }),
    index('patient_code_marks_lookup_idx').on(table.instanceId, table.code, table.patientId, table.lastVisit),
  ],
);

/** A saved audience rule: a code pull template (campaigns) or a hot-list template. */
export const audienceTemplates = pgTable(
  'audience_templates',
  {
    id: id(),
    instanceId: instanceId(),
    kind: text('kind', { enum: audienceTemplateKinds }).notNull(),
    name: text('name').notNull(),
    description: text('description'),
    rule: jsonb('rule').$type<AudienceRule>().notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    deletedAt: at('deleted_at'),
    ...stamps,
  },
  (table) => [
    index('audience_templates_instance_idx').on(table.instanceId, table.kind),
    unique('audience_templates_instance_id_key').on(table.instanceId, table.id),
  ],
);

/**
 * A campaign: a message in English and Spanish to an audience, approved by a System Manager or Admin
 * (decision 0051). `rule` is the template's rule copied at approval, when the recipients are frozen.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: id(),
    instanceId: instanceId(),
    name: text('name').notNull(),
    templateId: uuid('template_id'),
    rule: jsonb('rule').$type<AudienceRule>(),
    channels: text('channels').array().notNull(),
    messageEn: text('message_en').notNull(),
    messageEs: text('message_es').notNull(),
    subjectEn: text('subject_en'),
    subjectEs: text('subject_es'),
    instructionEn: text('instruction_en'),
    instructionEs: text('instruction_es'),
    /** Where the {link} short link leads (the clinic's booking page). */
    linkUrl: text('link_url'),
    scheduledAt: at('scheduled_at'),
    throttlePerMinute: integer('throttle_per_minute').notNull().default(60),
    attributionDays: integer('attribution_days').notNull().default(30),
    status: text('status', { enum: campaignStatuses }).notNull().default('draft'),
    textSending: boolean('text_sending').notNull().default(true),
    recipientCount: integer('recipient_count').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id),
    /**
     * Everyone who wrote or changed the content, author first (issue #24 §3): none of them may approve it,
     * so the approver is always a second pair of eyes (decision 0064).
     */
    editorIds: uuid('editor_ids').array().notNull().default(sql`'{}'::uuid[]`),
    approvedBy: uuid('approved_by').references(() => users.id),
    approvedAt: at('approved_at'),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
    summarySentAt: at('summary_sent_at'),
    archivedAt: at('archived_at'),
    deletedAt: at('deleted_at'),
    ...stamps,
  },
  (table) => [
    index('campaigns_instance_idx').on(table.instanceId, table.status, table.createdAt),
    unique('campaigns_instance_id_key').on(table.instanceId, table.id),
    sameClinic('campaigns_template_fk', { instanceId: table.instanceId, column: table.templateId }, audienceTemplates),
  ],
);

/**
 * One patient of a campaign, frozen at approval with the addresses the campaign will use. The unique
 * (campaign, patient) key is why a patient never gets the same campaign twice.
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    id: id(),
    instanceId: instanceId(),
    campaignId: uuid('campaign_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    language: text('language', { enum: ['en', 'es'] }).notNull(),
    phone: text('phone'),
    email: text('email'),
    providerName: text('provider_name'),
    matchedCodes: text('matched_codes').array().notNull(),
    smsStatus: text('sms_status', { enum: recipientChannelStatuses }).notNull().default('none'),
    emailStatus: text('email_status', { enum: recipientChannelStatuses }).notNull().default('none'),
    smsSkipReason: text('sms_skip_reason'),
    emailSkipReason: text('email_skip_reason'),
    smsMessageId: uuid('sms_message_id'),
    emailMessageId: uuid('email_message_id'),
    /** The order recipients are sent in (throttling takes them in this order). */
    position: integer('position').notNull(),
    queuedAt: at('queued_at'),
    /** The {link} short link's code (globally unique: the open route finds the clinic from it). */
    linkCode: text('link_code'),
    clickedAt: at('clicked_at'),
    clickCount: integer('click_count').notNull().default(0),
    repliedAt: at('replied_at'),
    optedOutAt: at('opted_out_at'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('campaign_recipients_patient_key').on(table.instanceId, table.campaignId, table.patientId),
    index('campaign_recipients_order_idx').on(table.instanceId, table.campaignId, table.position),
    index('campaign_recipients_phone_idx').on(table.instanceId, table.phone, table.queuedAt),
    index('campaign_recipients_patient_idx').on(table.instanceId, table.patientId, table.queuedAt),
    uniqueIndex('campaign_recipients_link_key')
      .on(table.linkCode)
      .where(sql`${table.linkCode} is not null`),
    unique('campaign_recipients_instance_id_key').on(table.instanceId, table.id),
    sameClinic('campaign_recipients_campaign_fk', { instanceId: table.instanceId, column: table.campaignId }, campaigns).onDelete(
      'cascade',
    ),
    sameClinic('campaign_recipients_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients).onDelete(
      'cascade',
    ),
    sameClinic(
      'campaign_recipients_sms_message_fk',
      { instanceId: table.instanceId, column: table.smsMessageId },
      outboxMessages,
    ),
    sameClinic(
      'campaign_recipients_email_message_fk',
      { instanceId: table.instanceId, column: table.emailMessageId },
      outboxMessages,
    ),
  ],
);

/**
 * A text a patient sent to the clinic's number. The body is encrypted like an outbound one; a reply
 * is matched to the patient by number and to the campaign that last texted that number.
 */
export const inboundTexts = pgTable(
  'inbound_texts',
  {
    id: id(),
    instanceId: instanceId(),
    fromPhone: text('from_phone').notNull(),
    body: text('body').notNull(),
    keyword: text('keyword'),
    providerMessageId: text('provider_message_id'),
    patientId: uuid('patient_id'),
    campaignId: uuid('campaign_id'),
    campaignRecipientId: uuid('campaign_recipient_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('inbound_texts_instance_idx').on(table.instanceId, table.receivedAt),
    index('inbound_texts_campaign_idx')
      .on(table.instanceId, table.campaignId, table.receivedAt)
      .where(sql`${table.campaignId} is not null`),
    uniqueIndex('inbound_texts_provider_id_key')
      .on(table.providerMessageId)
      .where(sql`${table.providerMessageId} is not null`),
    sameClinic('inbound_texts_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('inbound_texts_campaign_fk', { instanceId: table.instanceId, column: table.campaignId }, campaigns),
    sameClinic(
      'inbound_texts_recipient_fk',
      { instanceId: table.instanceId, column: table.campaignRecipientId },
      campaignRecipients,
    ),
  ],
);

/** A call list built from an audience rule (decision 0052); its entries are frozen when it is made. */
export const hotlists = pgTable(
  'hotlists',
  {
    id: id(),
    instanceId: instanceId(),
    name: text('name').notNull(),
    templateId: uuid('template_id'),
    rule: jsonb('rule').$type<AudienceRule>().notNull(),
    reason: text('reason'),
    status: text('status', { enum: hotlistStatuses }).notNull().default('active'),
    entryCount: integer('entry_count').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id),
    finishedAt: at('finished_at'),
    deletedAt: at('deleted_at'),
    ...stamps,
  },
  (table) => [
    index('hotlists_instance_idx').on(table.instanceId, table.status, table.createdAt),
    unique('hotlists_instance_id_key').on(table.instanceId, table.id),
    sameClinic('hotlists_template_fk', { instanceId: table.instanceId, column: table.templateId }, audienceTemplates),
  ],
);

/**
 * One patient on a hot list. A staff member claims the row while calling (`claimedBy` until
 * `claimedUntil`), so two people working the list never call the same patient; the outcome settles it
 * unless a call-back time brings it back.
 */
export const hotlistEntries = pgTable(
  'hotlist_entries',
  {
    id: id(),
    instanceId: instanceId(),
    hotlistId: uuid('hotlist_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    position: integer('position').notNull(),
    matchedCodes: text('matched_codes').array().notNull(),
    claimedBy: uuid('claimed_by').references(() => users.id),
    claimedUntil: at('claimed_until'),
    outcome: text('outcome', { enum: hotlistOutcomes }),
    outcomeAt: at('outcome_at'),
    outcomeBy: uuid('outcome_by').references(() => users.id),
    callbackAt: at('callback_at'),
    note: text('note'),
    attempts: integer('attempts').notNull().default(0),
    ...stamps,
  },
  (table) => [
    uniqueIndex('hotlist_entries_patient_key').on(table.instanceId, table.hotlistId, table.patientId),
    index('hotlist_entries_queue_idx').on(table.instanceId, table.hotlistId, table.position),
    index('hotlist_entries_patient_idx').on(table.instanceId, table.patientId),
    unique('hotlist_entries_instance_id_key').on(table.instanceId, table.id),
    sameClinic('hotlist_entries_hotlist_fk', { instanceId: table.instanceId, column: table.hotlistId }, hotlists).onDelete(
      'cascade',
    ),
    sameClinic('hotlist_entries_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients).onDelete(
      'cascade',
    ),
  ],
);

/** Each call made from a hot list: who called, when, and what came of it (progress per staff member). */
export const hotlistCalls = pgTable(
  'hotlist_calls',
  {
    id: id(),
    instanceId: instanceId(),
    hotlistId: uuid('hotlist_id').notNull(),
    entryId: uuid('entry_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    outcome: text('outcome', { enum: hotlistOutcomes }).notNull(),
    callbackAt: at('callback_at'),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('hotlist_calls_list_idx').on(table.instanceId, table.hotlistId, table.userId),
    index('hotlist_calls_patient_idx').on(table.instanceId, table.patientId, table.createdAt),
    sameClinic('hotlist_calls_entry_fk', { instanceId: table.instanceId, column: table.entryId }, hotlistEntries).onDelete(
      'cascade',
    ),
  ],
);
