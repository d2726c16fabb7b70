import { z } from 'zod';
import { PAGE_SIZE_DEFAULT } from './constants';
import { idSchema } from './validation';
import { hotlistOutcomes, hotlistStatuses, type HotlistOutcome } from './outreach';

/*
 * Hot lists (issue #15 §4, decision 0052): a call list frozen from a hot-list template. Staff work it one
 * patient at a time: "next" claims a row for HOTLIST_CLAIM_MINUTES, the outcome settles it (or brings it
 * back at a call-back time), and two people working the same list never get the same patient.
 */

export const HOTLIST_CLAIM_MINUTES = 15;
export const HOTLIST_NOTE_MAX = 1000;
export const HOTLIST_REASON_MAX = 500;
/** A voicemail without a chosen call-back time comes back on the next weekday at this hour (clinic clock). */
export const HOTLIST_CALLBACK_HOUR = 9;
/** How far ahead a call-back may be scheduled. */
export const HOTLIST_CALLBACK_MAX_DAYS = 365;
export const HOTLIST_ENTRIES_PAGE_MAX = 100;

/** Outcomes that may bring the patient back at a call-back time; the others are final. */
export const hotlistCallbackOutcomes: readonly HotlistOutcome[] = ['voicemail', 'reachedDeclined'];

export const hotlistInputSchema = z.object({
  name: z.string().trim().min(1, 'nameRequired').max(120, 'tooLong'),
  templateId: idSchema,
  reason: z
    .string()
    .trim()
    .max(HOTLIST_REASON_MAX, 'tooLong')
    .nullish()
    .transform((value) => value || null),
});
export type HotlistInput = z.output<typeof hotlistInputSchema>;
export type HotlistFormValues = z.input<typeof hotlistInputSchema>;

export const hotlistOutcomeInputSchema = z
  .object({
    outcome: z.enum(hotlistOutcomes, { error: 'required' }),
    note: z
      .string()
      .trim()
      .max(HOTLIST_NOTE_MAX, 'tooLong')
      .nullish()
      .transform((value) => value || null),
    /** ISO date-time; only with a voicemail or a declined call ("call me next month"). */
    callbackAt: z.iso
      .datetime({ offset: true, error: 'dateInvalid' })
      .max(40, 'dateInvalid')
      .nullish()
      .transform((value) => value ?? null),
  })
  .superRefine((input, issues) => {
    if (input.callbackAt && !hotlistCallbackOutcomes.includes(input.outcome)) {
      issues.addIssue({ code: 'custom', path: ['callbackAt'], message: 'invalid' });
    }
  });
export type HotlistOutcomeInput = z.output<typeof hotlistOutcomeInputSchema>;

export const hotlistEntriesQuerySchema = z.object({
  pageNumber: z.coerce.number().int('invalid').min(0, 'numberOutOfRange').max(100_000, 'numberOutOfRange').default(0),
  pageSize: z.coerce
    .number()
    .int('invalid')
    .min(1, 'numberOutOfRange')
    .max(HOTLIST_ENTRIES_PAGE_MAX, 'numberOutOfRange')
    .default(PAGE_SIZE_DEFAULT),
  /** `open` not called yet; `callback` waiting for or due a call-back; else one outcome. */
  filter: z.enum(['all', 'open', 'callback', ...hotlistOutcomes], { error: 'invalid' }).default('all'),
});
export type HotlistEntriesQuery = z.output<typeof hotlistEntriesQuerySchema>;

/**
 * Where a list stands; every patient is in exactly one of `settled`, `callbacks` and `remaining`.
 * `settled`: a final outcome (booked, declined without a call-back, wrong number, do not call);
 * `callbacks`: waiting for a call-back time still to come; `remaining`: what "next" can still hand out
 * now (never called, or a call-back that is due), claimed rows included; `inCall`: claimed right now.
 * `voicemail` counts patients whose last call reached a voicemail (they always have a call-back).
 */
export const hotlistProgressSchema = z.object({
  total: z.number().int(),
  called: z.number().int(),
  settled: z.number().int(),
  booked: z.number().int(),
  declined: z.number().int(),
  voicemail: z.number().int(),
  wrongNumber: z.number().int(),
  doNotCall: z.number().int(),
  callbacks: z.number().int(),
  remaining: z.number().int(),
  inCall: z.number().int(),
});
export type HotlistProgress = z.infer<typeof hotlistProgressSchema>;

export const hotlistSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  reason: z.string().nullable(),
  status: z.enum(hotlistStatuses),
  templateId: idSchema.nullable(),
  templateName: z.string().nullable(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  finishedAt: z.string().nullable(),
  progress: hotlistProgressSchema,
});
export type HotlistSummary = z.infer<typeof hotlistSummarySchema>;

/** Calls per staff member (over every list of the clinic on the dashboard, over one list on its page). */
export const hotlistStaffRowSchema = z.object({
  userId: idSchema,
  name: z.string(),
  calls: z.number().int(),
  reached: z.number().int(),
  booked: z.number().int(),
  lastCallAt: z.string().nullable(),
});
export type HotlistStaffRow = z.infer<typeof hotlistStaffRowSchema>;

export const hotlistDashboardSchema = z.object({
  data: z.array(hotlistSummarySchema),
  staff: z.array(hotlistStaffRowSchema),
});
export type HotlistDashboard = z.infer<typeof hotlistDashboardSchema>;

export const hotlistEntryRowSchema = z.object({
  id: idSchema,
  position: z.number().int(),
  patientId: idSchema,
  patientName: z.string(),
  matchedCodes: z.array(z.string()),
  outcome: z.enum(hotlistOutcomes).nullable(),
  outcomeAt: z.string().nullable(),
  outcomeByName: z.string().nullable(),
  callbackAt: z.string().nullable(),
  attempts: z.number().int(),
  /** Who is calling this patient right now (an unexpired claim). */
  inCallWith: z.string().nullable(),
});
export type HotlistEntryRow = z.infer<typeof hotlistEntryRowSchema>;

export const hotlistDetailSchema = hotlistSummarySchema.extend({
  staff: z.array(hotlistStaffRowSchema),
  entries: z.object({ totalRecords: z.number().int(), data: z.array(hotlistEntryRowSchema) }),
  /** The entry the signed-in user holds a claim on (to resume the call screen), if any. */
  myClaimEntryId: idSchema.nullable(),
});
export type HotlistDetail = z.infer<typeof hotlistDetailSchema>;

export const hotlistPhoneSchema = z.object({
  number: z.string(),
  /** PatientPhoneType: MOBILE 7, HOME 1, WORK 2, emergency contact 3, guarantor 4, next of kin 5. */
  phoneType: z.number().int(),
  isPrimary: z.boolean(),
  contactName: z.string().nullable(),
  relation: z.string().nullable(),
});
export type HotlistPhone = z.infer<typeof hotlistPhoneSchema>;

export const hotlistCallSchema = z.object({
  id: idSchema,
  outcome: z.enum(hotlistOutcomes),
  note: z.string().nullable(),
  callbackAt: z.string().nullable(),
  userName: z.string().nullable(),
  createdAt: z.string(),
});
export type HotlistCall = z.infer<typeof hotlistCallSchema>;

/** What the call screen shows for the claimed patient. */
export const hotlistCardSchema = z.object({
  entryId: idSchema,
  patientId: idSchema,
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string(),
  preferredLanguage: z.enum(['en', 'es']),
  phones: z.array(hotlistPhoneSchema),
  lastVisit: z.string().nullable(),
  matchedCodes: z.array(z.string()),
  reason: z.string().nullable(),
  claimedUntil: z.string(),
  /** Set when this is a call-back: when it was due. */
  callbackAt: z.string().nullable(),
  previousCalls: z.array(hotlistCallSchema),
});
export type HotlistCard = z.infer<typeof hotlistCardSchema>;

/** What is left to call now, and the soonest call-back still to come (when an empty queue fills again). */
export const hotlistQueueSchema = z.object({
  remaining: z.number().int(),
  nextCallbackAt: z.string().nullable(),
});
export type HotlistQueue = z.infer<typeof hotlistQueueSchema>;

/** POST /api/hotlists/:id/next: the claimed patient, or null when nobody is due. */
export const hotlistNextSchema = hotlistQueueSchema.extend({
  entry: hotlistCardSchema.nullable(),
});
export type HotlistNext = z.infer<typeof hotlistNextSchema>;
