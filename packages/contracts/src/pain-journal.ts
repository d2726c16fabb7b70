import { z } from 'zod';
import { formLanguageSchema } from './forms.js';
import { idSchema } from './validation.js';

/**
 * Pain between visits (issue #13, decision 0042). The patient records pain (VAS 0 no pain … 10 worst
 * possible) and a short note on /periodicvas/{patientId}/{token}; the token is the credential, the link
 * row remembers the appointment. Staff read the series (`painjournal?interval`) and the chart's points
 * (`paintimeline`); `recordnewpain` records a new complaint at a visit.
 */
export const PAIN_JOURNAL_LINK_DAYS = 30;
export const PAIN_NOTE_MAX_LENGTH = 1000;
export const PAIN_SCORE_MIN = 0;
export const PAIN_SCORE_MAX = 10;
/** Entries shown back to the patient after sending (dates and scores only). */
export const PAIN_JOURNAL_LAST_ENTRIES = 5;
export const PAIN_TIMELINE_LIMIT = 500;
export const PAIN_SERIES_LIMIT = 400;
export const PAIN_JOURNAL_LINK_TITLE = { en: 'Pain journal', es: 'Diario del dolor' } as const;

const scoreSchema = z
  .number('numberInvalid')
  .int('numberInvalid')
  .min(PAIN_SCORE_MIN, 'numberOutOfRange')
  .max(PAIN_SCORE_MAX, 'numberOutOfRange');

const noteSchema = z
  .string('invalid')
  .trim()
  .max(PAIN_NOTE_MAX_LENGTH, 'tooLong')
  .nullish()
  .transform((value) => value || null);

// ---- the patient's page (open) ------------------------------------------------------------------------

export const painJournalLinkStatuses = ['active', 'expired', 'revoked'] as const;
export type PainJournalLinkStatus = (typeof painJournalLinkStatuses)[number];

/** An entry as the patient sees it again: its clinic day (YYYY-MM-DD) and score, nothing else. */
export const painJournalDaySchema = z.object({ date: z.string(), score: z.number().int() });
export type PainJournalDay = z.infer<typeof painJournalDaySchema>;

/** GET /api/pain-journal/{token}: no name, no date of birth; the last entries only while the link is open. */
export const painJournalViewSchema = z.object({
  clinicName: z.string(),
  language: formLanguageSchema,
  status: z.enum(painJournalLinkStatuses),
  lastEntries: z.array(painJournalDaySchema),
});
export type PainJournalView = z.infer<typeof painJournalViewSchema>;

export const painJournalEntrySchema = z.object({
  score: scoreSchema,
  note: noteSchema,
  /** The page makes one per answer and sends it again on every retry: the same key stores once. */
  idempotencyKey: idSchema,
});
export type PainJournalEntryInput = z.input<typeof painJournalEntrySchema>;

/**
 * `replaced`: the patient had already written today (clinic day); the new answer took its place.
 * `replay`: the same idempotency key again, answered with what was stored.
 */
export const painJournalSavedSchema = z.object({
  date: z.string(),
  score: z.number().int(),
  replaced: z.boolean(),
  lastEntries: z.array(painJournalDaySchema),
});
export type PainJournalSaved = z.infer<typeof painJournalSavedSchema>;

// ---- staff ---------------------------------------------------------------------------------------------

export const painJournalChannels = ['email', 'sms'] as const;
export const sendPainJournalSchema = z.object({
  appointmentId: idSchema.optional(),
  send: z.array(z.enum(painJournalChannels, 'invalid')).max(2, 'invalid').default([]),
  language: formLanguageSchema.optional(),
});
export type SendPainJournal = z.input<typeof sendPainJournalSchema>;

/** `status` per channel: the outbox's status, or `notSent` when the clinic or the patient turned that channel off. */
export const sentPainJournalSchema = z.object({
  linkId: idSchema,
  /** /periodicvas/{patientId}/{token}: for the clinic tablet or to copy. */
  url: z.string(),
  expiresAt: z.string(),
  sent: z.array(z.object({ channel: z.enum(painJournalChannels), status: z.string() })),
});
export type SentPainJournal = z.infer<typeof sentPainJournalSchema>;

export const painIntervals = ['day', 'week', 'month'] as const;
export type PainInterval = (typeof painIntervals)[number];

export const painSeriesQuerySchema = z.object({
  patientId: idSchema,
  interval: z.enum(painIntervals, 'invalid').default('week'),
});

/** One period on the clinic's calendar (weeks start on Monday, ISO 8601): journal entries and visit scores together. */
export const painPeriodSchema = z.object({
  /** YYYY-MM-DD, the first clinic day of the period. */
  periodStart: z.string(),
  average: z.number(),
  min: z.number().int(),
  max: z.number().int(),
  count: z.number().int(),
});
export type PainPeriod = z.infer<typeof painPeriodSchema>;

export const painSeriesSchema = z.object({
  interval: z.enum(painIntervals),
  timeZone: z.string(),
  /** Oldest first; the latest PAIN_SERIES_LIMIT periods that have a score. */
  series: z.array(painPeriodSchema),
});
export type PainSeries = z.infer<typeof painSeriesSchema>;

/** The chart's points on one time axis: visits, journal entries and procedures. */
export const painTimelineSchema = z.object({
  /** VAS of completed or checked-in visits with a score, oldest first. */
  visits: z.array(z.object({ appointmentId: idSchema, startsAt: z.string(), score: z.number().int() })),
  /** Journal entries, oldest first (new complaints at a visit are the visit's own score). */
  journal: z.array(z.object({ id: idSchema, recordedAt: z.string(), score: z.number().int(), note: z.string().nullable() })),
  /** Procedures, injections and pump visits performed, oldest first. */
  procedures: z.array(
    z.object({
      id: idSchema,
      /** YYYY-MM-DD, a clinic day. */
      performedOn: z.string(),
      kind: z.enum(['procedure', 'injection', 'pump']),
      itemName: z.string().nullable(),
    }),
  ),
});
export type PainTimeline = z.infer<typeof painTimelineSchema>;

/** PATCH /api/patientappointments/recordnewpain/{id}: a new pain complaint at the visit. */
export const recordNewPainSchema = z.object({
  score: scoreSchema,
  bodyLocationIds: z.array(idSchema).max(50, 'invalid').optional(),
  note: noteSchema,
});
export type RecordNewPain = z.input<typeof recordNewPainSchema>;

export const recordedPainSchema = z.object({
  id: idSchema,
  appointmentId: idSchema,
  score: z.number().int(),
  bodyLocationIds: z.array(idSchema),
  note: z.string().nullable(),
  recordedAt: z.string(),
});
export type RecordedPain = z.infer<typeof recordedPainSchema>;
