import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
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
import { instances, users } from './core';
import { managedItems } from './admin';
import { appointments, patients } from './patients';
import { customForms, formResponses, patientLinks } from './forms';
import { sameClinic } from './same-clinic';

/*
 * Interventional pain care (issue #13, decision 0038): the visit record, interventions and pump visits,
 * planned procedures, procedure notes, the patient's current medicines (MME), pain between visits,
 * cohorts and care pathways. Every table carries the clinic and is under row-level security.
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

export interface InterventionMedicine {
  medicineId: string;
  dose: number;
  unit: string;
  /** Volume injected and the product's lot (decision 0062); absent on records made before. */
  volumeMl?: number | null;
  lot?: string | null;
}

export interface PumpRefill {
  painPumpMedicineId: string;
  /** The concentration filled, in the medicine's unit (mg/mL or mcg/mL). */
  concentration: number;
  /** Daily dose before the visit, in mg/day or mcg/day. */
  dailyDose: number | null;
  /** Dose changes enumeration (1 Maintain, 2 Increase, 3 Decrease, 4 Change To). */
  doseChange: number;
  /** The daily dose after the visit; required unless the dose is maintained. */
  newDailyDose: number | null;
}

export interface PumpVisit {
  /** Pump procedures enumeration (1 Pump Dye Study, 2 Catheter Revision, 3 Pump Change); null for a refill only. */
  procedure: number | null;
  reservoirVolumeMl: number | null;
  refills: PumpRefill[];
  nextRefillDate: string | null;
}

export interface ComplianceState {
  conservativeCareWeeks: number | null;
  physicalTherapyCompleted: boolean;
  imagingCompleted: boolean;
  psychEvaluationCompleted: boolean;
  notes: string | null;
}

/** What the provider records about one appointment: actions taken, codes and the visit note. */
export const visitRecords = pgTable(
  'visit_records',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id').notNull(),
    /** Values of the `visitActions` enumeration. */
    actionsTaken: smallint('actions_taken')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    diagnosisCodes: text('diagnosis_codes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    procedureCodes: text('procedure_codes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    note: text('note'),
    recordedBy: uuid('recorded_by').references(() => users.id),
    ...stamps,
  },
  (table) => [
    uniqueIndex('visit_records_appointment_key').on(table.instanceId, table.appointmentId),
    unique('visit_records_instance_id_key').on(table.instanceId, table.id),
    index('visit_records_patient_idx').on(table.instanceId, table.patientId),
    // The clinic's recent codes are read across its visit records.
    index('visit_records_recent_idx').on(table.instanceId, table.updatedAt),
    sameClinic('visit_records_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('visit_records_appointment_fk', { instanceId: table.instanceId, column: table.appointmentId }, appointments),
  ],
);

/** A procedure, injection or pain-pump visit performed for a patient. */
export const interventions = pgTable(
  'interventions',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id'),
    kind: text('kind', { enum: ['procedure', 'injection', 'pump'] }).notNull(),
    /** The interventional item (list type 1 procedures or 2 injections); null for a pump refill only. */
    itemId: uuid('item_id'),
    bodyPartId: uuid('body_part_id'),
    directionId: uuid('direction_id'),
    locationId: uuid('location_id'),
    adaLocationId: uuid('ada_location_id'),
    side: text('side', { enum: ['left', 'right', 'bilateral', 'midline'] }),
    /** Spinal levels as written in the record, e.g. "L4-L5", "L5-S1". */
    levels: text('levels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    medicines: jsonb('medicines').$type<InterventionMedicine[]>().notNull().default([]),
    guidance: text('guidance', { enum: ['fluoroscopy', 'ultrasound', 'ct', 'landmark', 'none'] }),
    performedOn: date('performed_on', { mode: 'string' }).notNull(),
    providerId: uuid('provider_id').references(() => users.id),
    /** Clinical provider types enumeration: Doctor, Nurse Practitioner, Physician Assistant. */
    providerType: text('provider_type'),
    /** Completion enumeration: 1 Completed, 2 Not Completed, 3 Partially Completed. */
    completion: smallint('completion').notNull().default(1),
    outcome: text('outcome'),
    followUpPlan: text('follow_up_plan'),
    pump: jsonb('pump').$type<PumpVisit>(),
    createdBy: uuid('created_by').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...stamps,
  },
  (table) => [
    index('interventions_patient_idx').on(table.instanceId, table.patientId, table.performedOn),
    index('interventions_instance_performed_idx').on(table.instanceId, table.performedOn),
    unique('interventions_instance_id_key').on(table.instanceId, table.id),
    check('interventions_pump', sql`(${table.kind} = 'pump') = (${table.pump} is not null)`),
    check('interventions_item', sql`${table.kind} = 'pump' or ${table.itemId} is not null`),
    sameClinic('interventions_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('interventions_appointment_fk', { instanceId: table.instanceId, column: table.appointmentId }, appointments),
    ...(
      [
        ['interventions_item_fk', table.itemId],
        ['interventions_body_part_fk', table.bodyPartId],
        ['interventions_direction_fk', table.directionId],
        ['interventions_location_fk', table.locationId],
        ['interventions_ada_location_fk', table.adaLocationId],
      ] as const
    ).map(([name, column]) => sameClinic(name, { instanceId: table.instanceId, column }, managedItems)),
  ],
);

/** A procedure planned for a patient, with what the payer asks before authorising it. */
export const plannedProcedures = pgTable(
  'planned_procedures',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    itemId: uuid('item_id').notNull(),
    status: text('status', {
      enum: ['planned', 'authorisationRequested', 'authorised', 'denied', 'scheduled', 'performed', 'cancelled'],
    })
      .notNull()
      .default('planned'),
    plannedFor: date('planned_for', { mode: 'string' }),
    compliance: jsonb('compliance').$type<ComplianceState>().notNull().default({
      conservativeCareWeeks: null,
      physicalTherapyCompleted: false,
      imagingCompleted: false,
      psychEvaluationCompleted: false,
      notes: null,
    }),
    interventionId: uuid('intervention_id'),
    createdBy: uuid('created_by').references(() => users.id),
    ...stamps,
  },
  (table) => [
    index('planned_procedures_patient_idx').on(table.instanceId, table.patientId),
    sameClinic('planned_procedures_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('planned_procedures_item_fk', { instanceId: table.instanceId, column: table.itemId }, managedItems),
    sameClinic(
      'planned_procedures_intervention_fk',
      { instanceId: table.instanceId, column: table.interventionId },
      interventions,
    ),
  ],
);

/** A clinic's procedure-note template; `{{placeholders}}` are filled from the intervention. */
export const procedureNoteTemplates = pgTable(
  'procedure_note_templates',
  {
    id: id(),
    instanceId: instanceId(),
    name: text('name').notNull(),
    /** The procedure type it serves: an interventional item, or every item of a kind when null. */
    kind: text('kind', { enum: ['procedure', 'injection', 'pump'] }).notNull(),
    itemId: uuid('item_id'),
    body: text('body').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...stamps,
  },
  (table) => [
    index('procedure_note_templates_instance_idx').on(table.instanceId, table.kind),
    unique('procedure_note_templates_instance_id_key').on(table.instanceId, table.id),
    sameClinic('procedure_note_templates_item_fk', { instanceId: table.instanceId, column: table.itemId }, managedItems),
  ],
);

/**
 * One version of an intervention's procedure note. A draft is edited in place; signing freezes it;
 * an amendment is a new version (the signed one stays, marked superseded).
 */
export const procedureNotes = pgTable(
  'procedure_notes',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    interventionId: uuid('intervention_id').notNull(),
    templateId: uuid('template_id'),
    providerId: uuid('provider_id').references(() => users.id),
    version: smallint('version').notNull().default(1),
    body: text('body').notNull(),
    status: text('status', { enum: ['draft', 'signed', 'superseded'] })
      .notNull()
      .default('draft'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signedBy: uuid('signed_by').references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    ...stamps,
  },
  (table) => [
    uniqueIndex('procedure_notes_version_key').on(table.instanceId, table.interventionId, table.version),
    index('procedure_notes_patient_idx').on(table.instanceId, table.patientId),
    index('procedure_notes_unsigned_idx')
      .on(table.instanceId, table.providerId)
      .where(sql`${table.status} = 'draft'`),
    sameClinic('procedure_notes_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('procedure_notes_intervention_fk', { instanceId: table.instanceId, column: table.interventionId }, interventions),
    sameClinic('procedure_notes_template_fk', { instanceId: table.instanceId, column: table.templateId }, procedureNoteTemplates),
  ],
);

/** A medicine the patient takes now, from the clinic's medicines list, with how it is taken (MME). */
export const patientMedicines = pgTable(
  'patient_medicines',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    medicineId: uuid('medicine_id').notNull(),
    /** Units of the medicine's strength per dose: 1 tablet of 10 mg is 1; a 25 mcg/h patch is 1. */
    unitsPerDose: numeric('units_per_dose', { precision: 8, scale: 3, mode: 'number' }).notNull(),
    dosesPerDay: numeric('doses_per_day', { precision: 6, scale: 2, mode: 'number' }).notNull(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    ...stamps,
  },
  (table) => [
    index('patient_medicines_patient_idx').on(table.instanceId, table.patientId),
    sameClinic('patient_medicines_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('patient_medicines_medicine_fk', { instanceId: table.instanceId, column: table.medicineId }, managedItems),
  ],
);

/**
 * The patient's allergies (issue #24 §4, decision 0056): from the intake's health history once staff
 * reconcile it, with the intake it came from. Removing one keeps the row.
 */
export const patientAllergies = pgTable(
  'patient_allergies',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    name: text('name').notNull(),
    reaction: text('reaction'),
    linkId: uuid('link_id'),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    ...stamps,
  },
  (table) => [
    index('patient_allergies_patient_idx').on(table.instanceId, table.patientId),
    sameClinic('patient_allergies_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('patient_allergies_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks),
  ],
);

/** Pain recorded between visits (the pain journal) or as a new complaint at a visit. */
export const painEntries = pgTable(
  'pain_entries',
  {
    id: id(),
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    appointmentId: uuid('appointment_id'),
    source: text('source', { enum: ['journal', 'complaint'] }).notNull(),
    /** VAS 0 no pain … 10 worst possible. */
    score: smallint('score').notNull(),
    note: text('note'),
    bodyLocationIds: uuid('body_location_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    linkId: uuid('link_id'),
    recordedBy: uuid('recorded_by').references(() => users.id),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('pain_entries_patient_idx').on(table.instanceId, table.patientId, table.recordedAt),
    check('pain_entries_score', sql`${table.score} between 0 and 10`),
    sameClinic('pain_entries_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('pain_entries_appointment_fk', { instanceId: table.instanceId, column: table.appointmentId }, appointments),
    sameClinic('pain_entries_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks),
  ],
);

/** Cohort (study group) membership. */
export const patientStudyGroups = pgTable(
  'patient_study_groups',
  {
    instanceId: instanceId(),
    patientId: uuid('patient_id').notNull(),
    studyGroupId: uuid('study_group_id').notNull(),
    assignedBy: uuid('assigned_by').references(() => users.id),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.instanceId, table.patientId, table.studyGroupId] }),
    index('patient_study_groups_group_idx').on(table.instanceId, table.studyGroupId),
    sameClinic('patient_study_groups_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic('patient_study_groups_group_fk', { instanceId: table.instanceId, column: table.studyGroupId }, managedItems),
  ],
);

/** A care pathway: a named plan of timed steps, started by an event or by staff. */
export const pathways = pgTable(
  'pathways',
  {
    id: id(),
    instanceId: instanceId(),
    name: text('name').notNull(),
    description: text('description'),
    /** What enrols a patient: staff only, a procedure performed (of `triggerItemIds`), a first visit, a cohort assignment. */
    trigger: text('trigger', { enum: ['manual', 'procedure', 'firstVisit', 'cohort'] })
      .notNull()
      .default('manual'),
    /** Interventional items (procedure trigger) or study groups (cohort trigger). */
    triggerItemIds: uuid('trigger_item_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Shipped as an editable example, not clinical advice. */
    isExample: boolean('is_example').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: uuid('created_by').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...stamps,
  },
  (table) => [
    index('pathways_instance_idx').on(table.instanceId),
    unique('pathways_instance_id_key').on(table.instanceId, table.id),
  ],
);

/** One timed step of a pathway, `dayOffset` days after the enrolment's anchor. */
export const pathwaySteps = pgTable(
  'pathway_steps',
  {
    id: id(),
    instanceId: instanceId(),
    pathwayId: uuid('pathway_id').notNull(),
    sortOrder: smallint('sort_order').notNull().default(0),
    dayOffset: integer('day_offset').notNull(),
    kind: text('kind', { enum: ['pro', 'painJournal', 'education', 'task'] }).notNull(),
    /** PRO steps: a scored instrument or a custom form. */
    formCode: smallint('form_code'),
    customFormId: uuid('custom_form_id'),
    /** Education messages and staff tasks (the task's text is `messageEn`). */
    messageEn: text('message_en'),
    messageEs: text('message_es'),
    /** Days after the due date on which an unfinished PRO or journal request is sent again. */
    reminderDays: smallint('reminder_days')
      .array()
      .notNull()
      .default(sql`'{3,7}'::smallint[]`),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...stamps,
  },
  (table) => [
    index('pathway_steps_pathway_idx').on(table.instanceId, table.pathwayId, table.sortOrder),
    unique('pathway_steps_instance_id_key').on(table.instanceId, table.id),
    sameClinic('pathway_steps_pathway_fk', { instanceId: table.instanceId, column: table.pathwayId }, pathways),
    sameClinic('pathway_steps_custom_form_fk', { instanceId: table.instanceId, column: table.customFormId }, customForms),
  ],
);

/** A patient following a pathway from `anchorAt` (the procedure's day, the first visit, or enrolment). */
export const pathwayEnrolments = pgTable(
  'pathway_enrolments',
  {
    id: id(),
    instanceId: instanceId(),
    pathwayId: uuid('pathway_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    anchorAt: timestamp('anchor_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['active', 'completed', 'stopped'] })
      .notNull()
      .default('active'),
    /** What started it: staff, or the trigger's event. */
    startedBy: text('started_by', { enum: ['staff', 'procedure', 'firstVisit', 'cohort'] }).notNull(),
    interventionId: uuid('intervention_id'),
    enrolledBy: uuid('enrolled_by').references(() => users.id),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    ...stamps,
  },
  (table) => [
    index('pathway_enrolments_patient_idx').on(table.instanceId, table.patientId),
    index('pathway_enrolments_pathway_idx').on(table.instanceId, table.pathwayId, table.status),
    // One running enrolment of a patient in a pathway at a time.
    uniqueIndex('pathway_enrolments_active_key')
      .on(table.instanceId, table.pathwayId, table.patientId)
      .where(sql`${table.status} = 'active'`),
    unique('pathway_enrolments_instance_id_key').on(table.instanceId, table.id),
    sameClinic('pathway_enrolments_pathway_fk', { instanceId: table.instanceId, column: table.pathwayId }, pathways),
    sameClinic('pathway_enrolments_patient_fk', { instanceId: table.instanceId, column: table.patientId }, patients),
    sameClinic(
      'pathway_enrolments_intervention_fk',
      { instanceId: table.instanceId, column: table.interventionId },
      interventions,
    ),
  ],
);

/** One step of one enrolment: when it is due, what was sent, and how it ended. */
export const pathwayStepRuns = pgTable(
  'pathway_step_runs',
  {
    id: id(),
    instanceId: instanceId(),
    enrolmentId: uuid('enrolment_id').notNull(),
    stepId: uuid('step_id').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['pending', 'sent', 'completed', 'missed', 'skipped'] })
      .notNull()
      .default('pending'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    remindersSent: smallint('reminders_sent').notNull().default(0),
    lastReminderAt: timestamp('last_reminder_at', { withTimezone: true }),
    linkId: uuid('link_id'),
    formResponseId: uuid('form_response_id'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    completedBy: uuid('completed_by').references(() => users.id),
    ...stamps,
  },
  (table) => [
    uniqueIndex('pathway_step_runs_step_key').on(table.instanceId, table.enrolmentId, table.stepId),
    // The sweep reads what is due or waiting, across clinics.
    index('pathway_step_runs_due_idx')
      .on(table.dueAt)
      .where(sql`${table.status} in ('pending', 'sent')`),
    index('pathway_step_runs_link_idx')
      .on(table.instanceId, table.linkId)
      .where(sql`${table.linkId} is not null`),
    sameClinic('pathway_step_runs_enrolment_fk', { instanceId: table.instanceId, column: table.enrolmentId }, pathwayEnrolments),
    sameClinic('pathway_step_runs_step_fk', { instanceId: table.instanceId, column: table.stepId }, pathwaySteps),
    sameClinic('pathway_step_runs_link_fk', { instanceId: table.instanceId, column: table.linkId }, patientLinks),
    sameClinic('pathway_step_runs_response_fk', { instanceId: table.instanceId, column: table.formResponseId }, formResponses),
  ],
);
