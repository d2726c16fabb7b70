import { z } from 'zod';
import { DateFilterPreset, type DateFilterPresetValue } from './appointments';
import { idSchema, optionalMdyDaySchema } from './validation';

/**
 * The referral tracker (/reports/refferaltracker, POST /api/reports/referraltracker) and the provider
 * baselines of the Provider Appointment Dashboard (/reports/providerbaselines, POST
 * /api/patientappointments/providerappointmentreport); issue #14 §4, decision 0048.
 */

/** The date presets a report takes: section 3's list up to the custom range (no "tomorrow", no fixed date). */
export const reportDatePresets = [
  DateFilterPreset.Today,
  DateFilterPreset.Yesterday,
  DateFilterPreset.ThisWeek,
  DateFilterPreset.LastWeek,
  DateFilterPreset.ThisMonth,
  DateFilterPreset.LastMonth,
  DateFilterPreset.ThisYear,
  DateFilterPreset.LastYear,
  DateFilterPreset.CustomRange,
] as const;

/** A follow-up counts from 28 days after the baseline (Pathwell's own rule; decision 0048). */
export const FOLLOW_UP_MIN_DAYS = 28;
/** Visit pain (0–10) improved by at least 2 points (Farrar JT et al., Pain 2001;94:149–158). */
export const PAIN_IMPROVEMENT_POINTS = 2;
export const REFERRAL_PATIENTS_PAGE_SIZE_MAX = 100;

const presetSchema = (byDefault: DateFilterPresetValue) =>
  z
    .number('invalid')
    .int('invalid')
    .refine((value) => (reportDatePresets as readonly number[]).includes(value), 'invalid')
    .default(byDefault)
    .transform((value) => value as DateFilterPresetValue);

const dayNumber = (mdy: string) => {
  const [month, day, year] = mdy.split('/').map(Number) as [number, number, number];
  return year * 10_000 + month * 100 + day;
};

/** A custom range needs both days, the first not after the second. */
function checkRange(value: { dateFilter: number; startDate?: string; endDate?: string }, context: z.RefinementCtx) {
  if (value.dateFilter !== DateFilterPreset.CustomRange) return;
  if (!value.startDate) context.addIssue({ code: 'custom', message: 'required', path: ['startDate'] });
  if (!value.endDate) context.addIssue({ code: 'custom', message: 'required', path: ['endDate'] });
  if (value.startDate && value.endDate && dayNumber(value.startDate) > dayNumber(value.endDate))
    context.addIssue({ code: 'custom', message: 'dateRangeInvalid', path: ['endDate'] });
}

// ---- referral tracker ------------------------------------------------------------------------------------

export const referralPeriods = ['month', 'quarter'] as const;
export type ReferralPeriod = (typeof referralPeriods)[number];

const referralFilterShape = {
  /** Default 7, this year: a referral pattern needs months to show. */
  dateFilter: presetSchema(DateFilterPreset.ThisYear),
  startDate: optionalMdyDaySchema,
  endDate: optionalMdyDaySchema,
  period: z.enum(referralPeriods, 'invalid').default('month'),
  /** `referralSources` codes; empty means every source, including none recorded. */
  referralSources: z.array(z.number().int('invalid').min(1, 'invalid').max(99, 'invalid')).max(50, 'tooLong').default([]),
  /** Entries of the clinic's Referrals list; empty means every referring provider, including none. */
  referringProviderIds: z.array(idSchema).max(200, 'tooLong').default([]),
  doctorId: idSchema.nullish(),
};

export const referralTrackerFilterSchema = z.object(referralFilterShape).superRefine(checkRange);
export type ReferralTrackerFilter = z.input<typeof referralTrackerFilterSchema>;

const funnel = {
  referred: z.number().int(),
  seen: z.number().int(),
  hadProcedure: z.number().int(),
  improved: z.number().int(),
};
export type ReferralFunnel = { referred: number; seen: number; hadProcedure: number; improved: number };

const sourceShape = { source: z.number().int().nullable() };
const providerShape = {
  providerId: idSchema.nullable(),
  providerName: z.string().nullable(),
  providerPractice: z.string().nullable(),
};

export const referralTrackerSchema = z.object({
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  period: z.enum(referralPeriods),
  computedAt: z.string(),
  /** One row per period, source and referring provider (null: none recorded), oldest period first. */
  rows: z.array(z.object({ periodStart: z.string(), ...sourceShape, ...providerShape, ...funnel })),
  bySource: z.array(z.object({ ...sourceShape, ...funnel })),
  byProvider: z.array(z.object({ ...providerShape, ...funnel })),
  byPeriod: z.array(z.object({ periodStart: z.string(), ...funnel })),
  totals: z.object(funnel),
});
export type ReferralTracker = z.infer<typeof referralTrackerSchema>;

export const referralMeasures = ['referred', 'seen', 'hadProcedure', 'improved'] as const;
export type ReferralMeasure = (typeof referralMeasures)[number];

/** The patients behind one number: the filter, the cell (period, source, provider) and the measure. */
export const referralPatientsFilterSchema = z
  .object({
    ...referralFilterShape,
    /** YYYY-MM-DD: the first day of the period; absent for every period. */
    periodStart: z
      .string()
      .max(10, 'dateInvalid')
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'dateInvalid')
      .nullish(),
    /** A source code, 0 for "none recorded"; absent for every source. */
    source: z.number().int('invalid').min(0, 'invalid').max(99, 'invalid').nullish(),
    /** A referring provider, 'none' for "none recorded"; absent for every provider. */
    providerId: z.union([idSchema, z.literal('none')]).nullish(),
    measure: z.enum(referralMeasures, 'invalid').default('referred'),
    pageNumber: z.number().int('invalid').min(0, 'numberOutOfRange').default(0),
    pageSize: z
      .number()
      .int('invalid')
      .min(1, 'numberOutOfRange')
      .max(REFERRAL_PATIENTS_PAGE_SIZE_MAX, 'numberOutOfRange')
      .default(25),
  })
  .superRefine(checkRange);
export type ReferralPatientsFilter = z.input<typeof referralPatientsFilterSchema>;

export const referralPatientsSchema = z.object({
  totalRecords: z.number().int(),
  rows: z.array(
    z.object({
      patientId: idSchema,
      firstName: z.string(),
      lastName: z.string(),
      /** When the patient entered the report: their first appointment, or the record's creation. */
      referredAt: z.string(),
      ...sourceShape,
      providerName: z.string().nullable(),
      seen: z.boolean(),
      hadProcedure: z.boolean(),
      improved: z.boolean(),
    }),
  ),
});
export type ReferralPatients = z.infer<typeof referralPatientsSchema>;

// ---- provider baselines ----------------------------------------------------------------------------------

export const providerBaselinesFilterSchema = z
  .object({
    /** Default 5, this month. */
    dateFilter: presetSchema(DateFilterPreset.ThisMonth),
    startDate: optionalMdyDaySchema,
    endDate: optionalMdyDaySchema,
    doctorId: idSchema.nullish(),
  })
  .superRefine(checkRange);
export type ProviderBaselinesFilter = z.input<typeof providerBaselinesFilterSchema>;

const meanShape = z.object({ mean: z.number().nullable(), count: z.number().int() });

const providerBaselineShape = {
  /** New patients: their first appointment ever falls in the window, with this provider. */
  newPatients: z.number().int(),
  /** Pain (0–10) at the new patients' first completed visit, and at their last completed visit 28+ days later. */
  baselinePain: meanShape,
  followUpPain: meanShape,
  /** Per outcome form: the new patients' first headline score and their last one 28+ days later. */
  forms: z.array(
    z.object({
      formCode: z.number().int(),
      baseline: meanShape,
      followUp: meanShape,
    }),
  ),
  /** The provider's appointments in the window by status. */
  appointments: z.object({
    upcoming: z.number().int(),
    checkingIn: z.number().int(),
    completed: z.number().int(),
    noShow: z.number().int(),
    total: z.number().int(),
  }),
  /** Appointments of the window that have started, and those whose intake was completed before the start. */
  intake: z.object({ due: z.number().int(), completedBefore: z.number().int(), rate: z.number().nullable() }),
};

export const providerBaselinesSchema = z.object({
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  computedAt: z.string(),
  rows: z.array(z.object({ providerId: idSchema.nullable(), providerName: z.string().nullable(), ...providerBaselineShape })),
  totals: z.object(providerBaselineShape),
});
export type ProviderBaselines = z.infer<typeof providerBaselinesSchema>;
export type ProviderBaselineRow = ProviderBaselines['rows'][number];
