import { z } from 'zod';
import { notScoredSchema } from './forms.js';
import { formCodeSchema } from './patient-links.js';
import { idSchema } from './validation.js';

/**
 * Care pathways (issue #13, decision 0041): a named plan of timed steps started by an event (a
 * procedure performed, a first visit, a cohort assignment) or by staff. Each step of an enrolment is a
 * step run, due `dayOffset` days after the enrolment's anchor, sent by the pathway sweep.
 */

export const pathwayTriggers = ['manual', 'procedure', 'firstVisit', 'cohort'] as const;
export type PathwayTrigger = (typeof pathwayTriggers)[number];
export const pathwayStepKinds = ['pro', 'painJournal', 'education', 'task'] as const;
export type PathwayStepKind = (typeof pathwayStepKinds)[number];
export const pathwayRunStatuses = ['pending', 'sent', 'completed', 'missed', 'skipped'] as const;
export type PathwayRunStatus = (typeof pathwayRunStatuses)[number];
export const pathwayEnrolmentStatuses = ['active', 'completed', 'stopped'] as const;
export const pathwayStartedBy = ['staff', 'procedure', 'firstVisit', 'cohort'] as const;

/** Two years of follow-up at most; reminders up to two months after a step is due. */
export const PATHWAY_MAX_DAY_OFFSET = 730;
export const PATHWAY_MAX_REMINDER_DAY = 60;
export const PATHWAY_MAX_STEPS = 40;
export const PATHWAY_MAX_REMINDERS = 6;
/**
 * A PRO or journal request not completed this many days after its last reminder (or, without
 * reminders, after it was due) is recorded as missed.
 */
export const PATHWAY_MISSED_AFTER_DAYS = 7;
export const PATHWAY_MESSAGE_MAX = 2000;

const text = (max: number) => z.string().trim().max(max, 'tooLong');

export const pathwayStepInputSchema = z
  .object({
    dayOffset: z.number().int('invalid').min(0, 'invalid').max(PATHWAY_MAX_DAY_OFFSET, 'invalid'),
    kind: z.enum(pathwayStepKinds, { error: 'invalid' }),
    formCode: formCodeSchema.nullable().optional(),
    customFormId: idSchema.nullable().optional(),
    messageEn: text(PATHWAY_MESSAGE_MAX).nullable().optional(),
    messageEs: text(PATHWAY_MESSAGE_MAX).nullable().optional(),
    reminderDays: z
      .array(z.number().int('invalid').min(0, 'invalid').max(PATHWAY_MAX_REMINDER_DAY, 'invalid'))
      .max(PATHWAY_MAX_REMINDERS, 'invalid')
      .default([3, 7]),
  })
  .superRefine((step, issues) => {
    if (step.kind === 'pro' && !step.formCode === !step.customFormId) {
      issues.addIssue({ code: 'custom', path: ['formCode'], message: 'required' });
    }
    if ((step.kind === 'education' || step.kind === 'task') && !step.messageEn) {
      issues.addIssue({ code: 'custom', path: ['messageEn'], message: 'required' });
    }
  });
export type PathwayStepInput = z.output<typeof pathwayStepInputSchema>;

export const pathwayInputSchema = z.object({
  name: z.string().trim().min(1, 'nameRequired').max(200, 'tooLong'),
  description: text(2000).nullable().optional(),
  trigger: z.enum(pathwayTriggers, { error: 'invalid' }),
  /** Interventional items (procedure) or study groups (cohort); ignored for the other triggers. */
  triggerItemIds: z.array(idSchema).max(50, 'invalid').default([]),
  isActive: z.boolean().default(true),
  steps: z.array(pathwayStepInputSchema).min(1, 'required').max(PATHWAY_MAX_STEPS, 'invalid'),
});
export type PathwayInput = z.input<typeof pathwayInputSchema>;

export const pathwayStepSchema = z.object({
  id: idSchema,
  sortOrder: z.number().int(),
  dayOffset: z.number().int(),
  kind: z.enum(pathwayStepKinds),
  formCode: z.number().int().nullable(),
  customFormId: z.string().nullable(),
  /** The instrument's or custom form's title (English), for PRO steps. */
  formTitle: z.string().nullable(),
  messageEn: z.string().nullable(),
  messageEs: z.string().nullable(),
  reminderDays: z.array(z.number().int()),
});
export type PathwayStep = z.infer<typeof pathwayStepSchema>;

const pathwayBase = {
  id: idSchema,
  name: z.string(),
  description: z.string().nullable(),
  trigger: z.enum(pathwayTriggers),
  triggerItemIds: z.array(z.string()),
  /** Shipped as an editable example, not clinical advice. */
  isExample: z.boolean(),
  isActive: z.boolean(),
};

export const pathwaySchema = z.object({
  ...pathwayBase,
  steps: z.array(pathwayStepSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Pathway = z.infer<typeof pathwaySchema>;

export const pathwaySummarySchema = z.object({
  ...pathwayBase,
  stepCount: z.number().int(),
  activeEnrolments: z.number().int(),
  enrolments: z.number().int(),
  completedEnrolments: z.number().int(),
  /** Step runs due (sent or acted on, or past their due time; skipped ones not counted) and completed: Admins and System Managers only. */
  dueRuns: z.number().int().nullable(),
  completedRuns: z.number().int().nullable(),
  /** completedRuns / dueRuns, 0..1; null with nothing due yet, or for other roles. */
  completionRate: z.number().nullable(),
});
export type PathwaySummary = z.infer<typeof pathwaySummarySchema>;

export const enrolPathwaySchema = z.object({
  patientId: idSchema,
  /** The day the plan counts from; now when absent. */
  anchorAt: z.iso.datetime({ offset: true, error: 'dateInvalid' }).max(40, 'dateInvalid').optional(),
});
export type EnrolPathway = z.input<typeof enrolPathwaySchema>;

export const pathwayNextStepSchema = z.object({
  runId: idSchema,
  kind: z.enum(pathwayStepKinds),
  dueAt: z.string(),
  formTitle: z.string().nullable(),
});

export const patientPathwaySchema = z.object({
  id: idSchema,
  pathwayId: idSchema,
  pathwayName: z.string(),
  isExample: z.boolean(),
  status: z.enum(pathwayEnrolmentStatuses),
  startedBy: z.enum(pathwayStartedBy),
  anchorAt: z.string(),
  completedSteps: z.number().int(),
  totalSteps: z.number().int(),
  nextStep: pathwayNextStepSchema.nullable(),
  /** The next questionnaire the patient will be sent (the dashboard's "next PRO date"). */
  nextProAt: z.string().nullable(),
});
export type PatientPathway = z.infer<typeof patientPathwaySchema>;

export const pathwaySkipReasons = ['accountClosed', 'unreachable', 'stopped'] as const;

export const pathwayScoreSchema = z.object({
  responseId: idSchema,
  submittedAt: z.string(),
  headlineScore: z.number().nullable(),
  /** Why there is no score (decision 0067). */
  notScored: notScoredSchema,
  /** The response this one is compared with; null when this is the baseline or none exists. */
  baseline: z.object({ responseId: idSchema, submittedAt: z.string(), headlineScore: z.number().nullable() }).nullable(),
  isBaseline: z.boolean(),
  change: z.number().nullable(),
  /** Whether the change is an improvement (null: no change, or the direction is unknown). */
  better: z.boolean().nullable(),
  /** The instrument's minimal clinically important difference, where it defines one (issue #5). */
  mcidPoints: z.number().nullable(),
  meetsMcid: z.boolean().nullable(),
});
export type PathwayScore = z.infer<typeof pathwayScoreSchema>;

export const pathwayStepRunSchema = z.object({
  id: idSchema,
  stepId: idSchema,
  sortOrder: z.number().int(),
  dayOffset: z.number().int(),
  kind: z.enum(pathwayStepKinds),
  formCode: z.number().int().nullable(),
  customFormId: z.string().nullable(),
  formTitle: z.string().nullable(),
  messageEn: z.string().nullable(),
  messageEs: z.string().nullable(),
  dueAt: z.string(),
  status: z.enum(pathwayRunStatuses),
  sentAt: z.string().nullable(),
  remindersSent: z.number().int(),
  reminderDays: z.array(z.number().int()),
  completedAt: z.string().nullable(),
  skipReason: z.enum(pathwaySkipReasons).nullable(),
  score: pathwayScoreSchema.nullable(),
});
export type PathwayStepRun = z.infer<typeof pathwayStepRunSchema>;

export const pathwayEnrolmentSchema = z.object({
  id: idSchema,
  pathwayId: idSchema,
  pathwayName: z.string(),
  pathwayDescription: z.string().nullable(),
  isExample: z.boolean(),
  patientId: idSchema,
  patientName: z.string(),
  status: z.enum(pathwayEnrolmentStatuses),
  startedBy: z.enum(pathwayStartedBy),
  anchorAt: z.string(),
  completedAt: z.string().nullable(),
  steps: z.array(pathwayStepRunSchema),
});
export type PathwayEnrolment = z.infer<typeof pathwayEnrolmentSchema>;

/** GET /api/pathways/:id/roster: the patients enrolled in a pathway, one page at a time (issue #24 §5). */
export const pathwayRosterQuerySchema = z.object({
  pageSize: z.coerce.number().int('invalid').min(1, 'numberOutOfRange').max(100, 'numberOutOfRange').default(25),
  pageNumber: z.coerce.number().int('invalid').min(0, 'numberOutOfRange').default(0),
  /** Only the enrolments in this state; all of them when absent. */
  status: z.enum(pathwayEnrolmentStatuses, { error: 'invalid' }).optional(),
});
export type PathwayRosterQuery = z.input<typeof pathwayRosterQuerySchema>;

export const pathwayRosterStepSchema = z.object({
  runId: idSchema,
  kind: z.enum(pathwayStepKinds),
  dayOffset: z.number().int(),
  formTitle: z.string().nullable(),
  status: z.enum(pathwayRunStatuses),
  dueAt: z.string(),
  sentAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  skipReason: z.enum(pathwaySkipReasons).nullable(),
  /** The headline score of the PRO's response, when it was answered and the form scores one. */
  headlineScore: z.number().nullable(),
  /** Why an answered PRO has no score (decision 0067). */
  notScored: notScoredSchema,
});
export type PathwayRosterStep = z.infer<typeof pathwayRosterStepSchema>;

export const pathwayRosterEntrySchema = z.object({
  enrolmentId: idSchema,
  patientId: idSchema,
  patientName: z.string(),
  status: z.enum(pathwayEnrolmentStatuses),
  anchorAt: z.string(),
  steps: z.array(pathwayRosterStepSchema),
});
export type PathwayRosterEntry = z.infer<typeof pathwayRosterEntrySchema>;

export const pathwayRosterPageSchema = z.object({
  totalRecords: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  data: z.array(pathwayRosterEntrySchema),
});
export type PathwayRosterPage = z.infer<typeof pathwayRosterPageSchema>;
