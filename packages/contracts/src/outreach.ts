import { z } from 'zod';
import { idSchema } from './validation';
import { isoDateSchema } from './patients';
import { CPT_CODE_PATTERN } from './managed-lists';
import { ICD10_CODE_PATTERN } from './interventions';

/*
 * Outreach (issue #15, decision 0049): coded visits, code groups, audience rules (code pull and hot-list
 * templates), campaigns and hot lists. This file holds what every part shares: the code shapes, the
 * audience rule and its preview. Campaigns, hot lists and the encounter import keep their own files.
 */

/** ICD-10-CM (diagnosis) or CPT / HCPCS Level II (procedure), told apart by shape. */
export const visitCodeKinds = ['diagnosis', 'procedure'] as const;
export type VisitCodeKind = (typeof visitCodeKinds)[number];

/** The kind of a code already upper-cased and trimmed; null when it is neither shape. */
export function visitCodeKindOf(code: string): VisitCodeKind | null {
  if (ICD10_CODE_PATTERN.test(code)) return 'diagnosis';
  if (CPT_CODE_PATTERN.test(code)) return 'procedure';
  return null;
}

/** One diagnosis or procedure code as a user types it (`m54.16` → `M54.16`). */
export const visitCodeSchema = z
  .string()
  .max(8, 'visitCodeInvalid')
  .transform((value) => value.trim().toUpperCase())
  .pipe(z.string().refine((code) => visitCodeKindOf(code) !== null, 'visitCodeInvalid'));

export const CODE_GROUP_MAX_CODES = 200;
export const AUDIENCE_MAX_CODES = 200;
export const AUDIENCE_MAX_GROUPS = 50;
export const AUDIENCE_SAMPLE_SIZE = 25;

export const codeGroupInputSchema = z.object({
  name: z.string().trim().min(1, 'nameRequired').max(120, 'tooLong'),
  codes: z
    .array(visitCodeSchema)
    .min(1, 'codesRequired')
    .max(CODE_GROUP_MAX_CODES, 'tooMany')
    .transform((codes) => [...new Set(codes)]),
});
export type CodeGroupInput = z.output<typeof codeGroupInputSchema>;

export const codeGroupSchema = z.object({
  id: idSchema,
  name: z.string(),
  codes: z.array(z.string()),
  updatedAt: z.string(),
});
export type CodeGroup = z.infer<typeof codeGroupSchema>;

/**
 * Code match modes, the section 3 `codeMatchModes` enumeration: 1 All of These Codes (the patient has
 * every code, on any visits), 2 Any of These Codes (at least one), 3 Custom Timeframe (at least one,
 * on a visit inside `codedFrom`–`codedTo`).
 */
export const CODE_MATCH_ALL = 1;
export const CODE_MATCH_ANY = 2;
export const CODE_MATCH_TIMEFRAME = 3;
export const codeMatchModeSchema = z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'invalid' });

const optionalDate = isoDateSchema.nullish().transform((value) => value ?? null);
const idList = (max: number) => z.array(idSchema).max(max, 'tooMany').default([]);

/**
 * A saved audience: which coded patients, narrowed by the filters a clinic's marketer expects. Patients
 * who are archived, deceased or closed are never in an audience; opted-out patients are left out of
 * the channel they opted out of when a campaign is frozen (and of texts at send time, always).
 */
export const audienceRuleSchema = z
  .object({
    codes: z
      .array(visitCodeSchema)
      .max(AUDIENCE_MAX_CODES, 'tooMany')
      .default([])
      .transform((codes) => [...new Set(codes)]),
    codeGroupIds: idList(AUDIENCE_MAX_GROUPS),
    matchMode: codeMatchModeSchema.default(CODE_MATCH_ANY),
    /** Custom Timeframe only: the visit-date window (inclusive, clinic dates). */
    codedFrom: optionalDate,
    codedTo: optionalDate,
    /** The patient's last visit (coded visit or completed appointment) is before / on or after this date. */
    lastVisitBefore: optionalDate,
    lastVisitAfter: optionalDate,
    noUpcomingAppointment: z.boolean().default(false),
    ageMin: z
      .number()
      .int('invalid')
      .min(0, 'invalid')
      .max(120, 'invalid')
      .nullish()
      .transform((v) => v ?? null),
    ageMax: z
      .number()
      .int('invalid')
      .min(0, 'invalid')
      .max(120, 'invalid')
      .nullish()
      .transform((v) => v ?? null),
    /** The provider of a matching coded visit. */
    providerIds: idList(50),
    payorStatusIds: idList(50),
    /** Cohorts (study groups) the patient belongs to: any of them. */
    studyGroupIds: idList(50),
    /** Leave out patients reached by a campaign or called from a hot list in the last N days. */
    excludeContactedWithinDays: z
      .number()
      .int('invalid')
      .min(1, 'invalid')
      .max(730, 'invalid')
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((rule, issues) => {
    if (rule.codes.length === 0 && rule.codeGroupIds.length === 0) {
      issues.addIssue({ code: 'custom', path: ['codes'], message: 'codesRequired' });
    }
    if (rule.matchMode === CODE_MATCH_TIMEFRAME) {
      if (!rule.codedFrom) issues.addIssue({ code: 'custom', path: ['codedFrom'], message: 'required' });
      if (!rule.codedTo) issues.addIssue({ code: 'custom', path: ['codedTo'], message: 'required' });
    }
    if (rule.codedFrom && rule.codedTo && rule.codedFrom > rule.codedTo) {
      issues.addIssue({ code: 'custom', path: ['codedTo'], message: 'dateRangeInvalid' });
    }
    if (rule.ageMin !== null && rule.ageMax !== null && rule.ageMin > rule.ageMax) {
      issues.addIssue({ code: 'custom', path: ['ageMax'], message: 'invalid' });
    }
  });
export type AudienceRule = z.output<typeof audienceRuleSchema>;
export type AudienceRuleInput = z.input<typeof audienceRuleSchema>;

/** Code pull templates feed campaigns; hot-list templates feed hot lists (both are audience rules). */
export const audienceTemplateKinds = ['campaign', 'hotlist'] as const;
export type AudienceTemplateKind = (typeof audienceTemplateKinds)[number];

export const audienceTemplateInputSchema = z.object({
  name: z.string().trim().min(1, 'nameRequired').max(120, 'tooLong'),
  kind: z.enum(audienceTemplateKinds, { error: 'invalid' }),
  description: z
    .string()
    .trim()
    .max(500, 'tooLong')
    .nullish()
    .transform((v) => v || null),
  rule: audienceRuleSchema,
});
export type AudienceTemplateInput = z.output<typeof audienceTemplateInputSchema>;

export const audiencePatientSchema = z.object({
  patientId: idSchema,
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string(),
  lastVisit: z.string().nullable(),
  /** The rule's codes this patient has (what put them on the list). */
  matchedCodes: z.array(z.string()),
});
export type AudiencePatient = z.infer<typeof audiencePatientSchema>;

export const audiencePreviewSchema = z.object({
  count: z.number().int(),
  sample: z.array(audiencePatientSchema),
});
export type AudiencePreview = z.infer<typeof audiencePreviewSchema>;

/** A stored rule as answers carry it (already normalised: no transforms, which answers cannot encode). */
export const audienceRuleOutputSchema = z.object({
  codes: z.array(z.string()),
  codeGroupIds: z.array(idSchema),
  matchMode: codeMatchModeSchema,
  codedFrom: z.string().nullable(),
  codedTo: z.string().nullable(),
  lastVisitBefore: z.string().nullable(),
  lastVisitAfter: z.string().nullable(),
  noUpcomingAppointment: z.boolean(),
  ageMin: z.number().int().nullable(),
  ageMax: z.number().int().nullable(),
  providerIds: z.array(idSchema),
  payorStatusIds: z.array(idSchema),
  studyGroupIds: z.array(idSchema),
  excludeContactedWithinDays: z.number().int().nullable(),
}) satisfies z.ZodType<AudienceRule>;

/** A saved template as the API answers it (`GET /api/audiencetemplates`). */
export const audienceTemplateSchema = z.object({
  id: idSchema,
  kind: z.enum(audienceTemplateKinds),
  name: z.string(),
  description: z.string().nullable(),
  rule: audienceRuleOutputSchema,
  updatedAt: z.string(),
  createdByName: z.string().nullable(),
});
export type AudienceTemplate = z.infer<typeof audienceTemplateSchema>;

export const audienceTemplateListQuerySchema = z.object({ kind: z.enum(audienceTemplateKinds, { error: 'invalid' }).optional() });

/**
 * `POST /api/patients/patientscontrollistfortemplate` (section 7): the audience of a rule being built
 * (`kind` + `rule`) or of a saved template (`templateId`).
 */
export const audiencePreviewRequestSchema = z
  .object({
    templateId: idSchema.optional(),
    kind: z.enum(audienceTemplateKinds, { error: 'invalid' }).default('campaign'),
    rule: audienceRuleSchema.optional(),
  })
  .superRefine((body, issues) => {
    if (!body.templateId && !body.rule) issues.addIssue({ code: 'custom', path: ['rule'], message: 'required' });
  });
export type AudiencePreviewRequest = z.input<typeof audiencePreviewRequestSchema>;

/** Merge fields a campaign message may use (issue #15 §3). */
export const campaignMergeFields = ['firstName', 'clinic', 'provider', 'instruction', 'link'] as const;
export type CampaignMergeField = (typeof campaignMergeFields)[number];

export const campaignStatuses = ['draft', 'approved', 'finished', 'archived'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];
export const campaignChannels = ['sms', 'email'] as const;
export type CampaignChannel = (typeof campaignChannels)[number];

/**
 * One recipient's state on one channel: `pending` frozen and waiting for its turn, `queued` handed to
 * the outbox (its message's own status then tells sent / delivered / failed), `skipped` never sent
 * (`skipReason` says why: no address, opted out, texts or emails off).
 */
export const recipientChannelStatuses = ['none', 'pending', 'queued', 'skipped'] as const;
export type RecipientChannelStatus = (typeof recipientChannelStatuses)[number];
export const recipientSkipReasons = [
  'noAddress',
  'optedOut',
  'patientTextOff',
  'patientEmailOff',
  'patientOptionalOff',
  'finished',
] as const;

/** Hot-list call outcomes (issue #15 §4). */
export const hotlistOutcomes = ['reachedBooked', 'reachedDeclined', 'voicemail', 'wrongNumber', 'doNotCall'] as const;
export type HotlistOutcome = (typeof hotlistOutcomes)[number];
export const hotlistStatuses = ['active', 'finished'] as const;
