import { z } from 'zod';
import { DateFilterPreset, type DateFilterPresetValue } from './appointments';
import { listTotalShape, paginationFilterSchemaOf } from './paging';
import { idSchema, optionalMdyDaySchema } from './validation';

/**
 * Performance measures (/reports/patientsperformancemeasure; specification sections 3 "Performance
 * filter", 7 "patientsPerformanceMeasure", 9 "dateFilter default 1"; issue #14 §3; decision 0046).
 * The measures are Pathwell's own, not CMS MIPS quality measures.
 */

export const performanceMeasureKeys = ['baselinePro', 'followUpPro', 'mcidImprovement', 'painChange'] as const;
export type PerformanceMeasureKey = (typeof performanceMeasureKeys)[number];

/** The published presets 1–9 of `dateFilterPresets`; 10 (tomorrow) and 11 (fixed date) belong to the appointment list. */
export const performanceDatePresets = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const satisfies readonly DateFilterPresetValue[];

/**
 * Clinic days around the new-patient visit's clinic day in which a baseline response counts (decision 0046).
 * Every day span here counts the clinic's calendar days, never 24-hour periods (decision 0060).
 */
export const BASELINE_PRO_DAYS_BEFORE = 30;
export const BASELINE_PRO_DAYS_AFTER = 7;
/** A follow-up needs a first response at least this long before the window ends … */
export const FOLLOW_UP_FIRST_DAYS_BEFORE_END = 60;
/** … and comes at least this long after the first response. */
export const FOLLOW_UP_MIN_DAYS = 30;
/** MCID improvement: the follow-up at least this long after the baseline. */
export const MCID_FOLLOW_UP_MIN_DAYS = 28;
/** Pain (0–10 NRS): 2 points is the clinically important change (Farrar JT et al., Pain 2001;94:149–158). */
export const PAIN_MCID_POINTS = 2;
export const PERFORMANCE_PAGE_SIZE_MAX = 100;

const dayNumber = (mdy: string) => {
  const [month, day, year] = mdy.split('/').map(Number) as [number, number, number];
  return year * 10_000 + month * 100 + day;
};

/** Section 3 "Performance filter: dateFilter (default 1), startDate, endDate", plus the selected doctor. */
export const performanceFilterSchema = z
  .object({
    dateFilter: z.coerce
      .number('invalid')
      .int('invalid')
      .refine((value) => (performanceDatePresets as readonly number[]).includes(value), 'invalid')
      .default(DateFilterPreset.Today)
      .transform((value) => value as DateFilterPresetValue),
    /** Custom range (9): MM/DD/YYYY clinic days, both included. */
    startDate: optionalMdyDaySchema,
    endDate: optionalMdyDaySchema,
    doctorId: z
      .union([idSchema, z.literal(''), z.null()])
      .optional()
      .transform((value) => value || undefined),
  })
  .superRefine((value, context) => {
    if (value.dateFilter !== DateFilterPreset.CustomRange) return;
    if (!value.startDate) context.addIssue({ code: 'custom', message: 'required', path: ['startDate'] });
    if (!value.endDate) context.addIssue({ code: 'custom', message: 'required', path: ['endDate'] });
    if (value.startDate && value.endDate && dayNumber(value.startDate) > dayNumber(value.endDate))
      context.addIssue({ code: 'custom', message: 'dateRangeInvalid', path: ['endDate'] });
  });
export type PerformanceFilter = z.input<typeof performanceFilterSchema>;
export type PerformanceFilterParsed = z.output<typeof performanceFilterSchema>;

export const performanceFilterDefaults = {
  dateFilter: DateFilterPreset.Today,
  startDate: '',
  endDate: '',
} satisfies PerformanceFilter;

const count = z.number().int();

export const performanceMeasureSchema = z.object({
  key: z.enum(performanceMeasureKeys),
  numerator: count,
  denominator: count,
  /** Patients who met the denominator but are archived or closed their account; in neither count. */
  exclusions: count,
  /** numerator / denominator, 0–1; null when the denominator is 0. */
  rate: z.number().nullable(),
  /**
   * painChange only: the improvement in visit pain (first − latest, positive = less pain; decision 0060) over
   * the denominator.
   */
  median: z.number().nullable().optional(),
  q1: z.number().nullable().optional(),
  q3: z.number().nullable().optional(),
  n: count.optional(),
  /** painChange only: the share improved by at least PAIN_MCID_POINTS (= rate). */
  improvedShare: z.number().nullable().optional(),
});
export type PerformanceMeasure = z.infer<typeof performanceMeasureSchema>;

/** MCID improvement per outcome form with a published MCID. */
export const performanceFormRowSchema = z.object({
  formCode: z.number().int(),
  mcid: z.number(),
  mcidSource: z.string(),
  higherIsBetter: z.boolean(),
  numerator: count,
  denominator: count,
  exclusions: count,
  rate: z.number().nullable(),
});
export type PerformanceFormRow = z.infer<typeof performanceFormRowSchema>;

export const performanceReportSchema = z.object({
  /** The reporting window [from, to), UTC instants (ISO 8601), and the clinic's time zone. */
  window: z.object({ from: z.string(), to: z.string(), timeZone: z.string() }),
  measures: z.array(performanceMeasureSchema),
  perForm: z.array(performanceFormRowSchema),
  computedAt: z.string(),
});
export type PerformanceReport = z.infer<typeof performanceReportSchema>;

export const performanceGroups = ['numerator', 'denominator', 'exclusions'] as const;
export type PerformanceGroup = (typeof performanceGroups)[number];

/** POST /api/reports/patientsperformancemeasure/patients: the patients behind one count. */
export const performancePatientsRequestSchema = paginationFilterSchemaOf({ maxPageSize: PERFORMANCE_PAGE_SIZE_MAX }).extend({
  filter: performanceFilterSchema.prefault(performanceFilterDefaults),
  measure: z.enum(performanceMeasureKeys, 'invalid'),
  group: z.enum(performanceGroups, 'invalid'),
  /** mcidImprovement only: one form's row of the per-form table. */
  formCode: z.number().int().min(1).max(15).nullish(),
});
export type PerformancePatientsRequest = z.input<typeof performancePatientsRequestSchema>;

/** One patient and the dates and scores that put them in the count. */
export const performancePatientSchema = z.object({
  patientId: idSchema,
  fullName: z.string(),
  /** YYYY-MM-DD */
  birthDate: z.string(),
  doctor: z.string().nullable(),
  excluded: z.boolean(),
  met: z.boolean(),
  /** The form the scores are on (null for pain). */
  formCode: z.number().int().nullable(),
  /** The index event: new-patient visit, first response, baseline response or baseline pain visit (ISO instant). */
  anchorAt: z.string().nullable(),
  firstScore: z.number().nullable(),
  /** What met (or would meet) the measure: baseline response, follow-up response, latest response or visit. */
  followAt: z.string().nullable(),
  latestScore: z.number().nullable(),
  /**
   * mcidImprovement and painChange: how much better the latest score is than the first, positive = better
   * whatever the instrument's direction (decision 0060); null for the other measures.
   */
  improvement: z.number().nullable(),
});
export type PerformancePatient = z.infer<typeof performancePatientSchema>;

export const performancePatientsSchema = z.object({
  ...listTotalShape,
  rows: z.array(performancePatientSchema),
});
export type PerformancePatients = z.infer<typeof performancePatientsSchema>;
