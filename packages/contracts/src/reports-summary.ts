import { z } from 'zod';
import { idSchema, optionalMdyDaySchema } from './validation';

/**
 * The data sandbox (/reports/summary; specification sections 3 "Summary report filter", 7 "Reports:
 * summary", 9 "Summary ranges"; issue #14 §1; decision 0044).
 */

/** Section 3 "report data types include PRO"; pain is the visit pain score (0–10). */
export const ReportSummaryDataType = { PRO: 1, Pain: 2 } as const;
export type ReportSummaryDataTypeValue = (typeof ReportSummaryDataType)[keyof typeof ReportSummaryDataType];

/** Section 9: visits 0–24 weeks in steps of 4, age 0–100, BMI 18–50, pain 0–10. */
export const SUMMARY_VISIT_WEEKS_MAX = 24;
export const SUMMARY_VISIT_WEEKS_STEP = 4;
export const SUMMARY_AGE_MAX = 100;
export const SUMMARY_BMI_MIN = 18;
export const SUMMARY_BMI_MAX = 50;

const ids = z.array(idSchema).max(200, 'tooLong').default([]);
const codes = z.array(z.number().int().min(1).max(999)).max(200, 'tooLong').default([]);
const range = (min: number, max: number) => z.number().min(min, 'numberOutOfRange').max(max, 'numberOutOfRange');

/**
 * Where week 0 sits for each patient: their first response (or first visit with pain) in the date range,
 * or the first of the chosen procedures performed in the date range (then the baseline is the last score
 * on or before that day, at most 90 days earlier, and the weeks count from the procedure).
 */
export const summaryAnchors = ['firstScore', 'procedure'] as const;
export type SummaryAnchor = (typeof summaryAnchors)[number];

export const summaryFilterSchema = z
  .object({
    reportSummaryDataType: z.union([z.literal(1), z.literal(2)]).default(1),
    /** Outcome forms 1–15 to chart; more than one is normalised to 0–100 by the section 9 maximums. */
    formIds: z.array(z.number().int().min(1).max(15)).max(15, 'tooLong').default([]),
    anchor: z.enum(summaryAnchors).default('firstScore'),
    /** Interventional items (procedures, injections); with anchor 'procedure' they place week 0. */
    procedureItemIds: ids,
    visitMin: range(0, SUMMARY_VISIT_WEEKS_MAX).default(0),
    visitMax: range(0, SUMMARY_VISIT_WEEKS_MAX).default(SUMMARY_VISIT_WEEKS_MAX),
    ageMin: range(0, SUMMARY_AGE_MAX).default(0),
    ageMax: range(0, SUMMARY_AGE_MAX).default(SUMMARY_AGE_MAX),
    startingPainScoreMin: range(0, 10).default(0),
    startingPainScoreMax: range(0, 10).default(10),
    /** Only applied when the clinic shows the BMI filter (`showBmiFilterOnSandbox`). */
    bmiMin: range(SUMMARY_BMI_MIN, SUMMARY_BMI_MAX).nullish(),
    bmiMax: range(SUMMARY_BMI_MIN, SUMMARY_BMI_MAX).nullish(),
    /** RAND-36 (SF-36, form 1) score at baseline; 0–0 (section 9's default) means no filter. */
    randScoreMin: range(0, 100).nullish(),
    randScoreMax: range(0, 100).nullish(),
    studyGroups: ids,
    bodyLocations: ids,
    genders: ids,
    occupations: ids,
    maritalStatus: ids,
    nicotineStatus: codes,
    payorStatus: ids,
    diseaseStates: codes,
    /** Spelled as the specification spells it. */
    psychaitricStatus: codes,
    surgicalHistory: codes,
    patientId: idSchema.nullish(),
    patientName: z.string().trim().max(100, 'tooLong').nullish(),
    perioperativeMessageTemplateIds: ids,
    /** Clinic days (MM/DD/YYYY): week 0 falls within them. */
    startDate: optionalMdyDaySchema,
    endDate: optionalMdyDaySchema,
    doctorId: idSchema.nullish(),
    /** Only scores and visits on or after the clinic's `deploymentDate`. */
    postDeploymentAppointments: z.boolean().default(false),
  })
  .superRefine((value, context) => {
    const pairs = [
      ['visitMin', 'visitMax'],
      ['ageMin', 'ageMax'],
      ['startingPainScoreMin', 'startingPainScoreMax'],
      ['bmiMin', 'bmiMax'],
      ['randScoreMin', 'randScoreMax'],
    ] as const;
    for (const [low, high] of pairs) {
      const a = value[low];
      const b = value[high];
      if (a !== null && a !== undefined && b !== null && b !== undefined && a > b)
        context.addIssue({ code: 'custom', message: 'rangeInvalid', path: [low] });
    }
    if (value.reportSummaryDataType === ReportSummaryDataType.PRO && value.formIds.length === 0)
      context.addIssue({ code: 'custom', message: 'required', path: ['formIds'] });
    if (value.anchor === 'procedure' && value.procedureItemIds.length === 0)
      context.addIssue({ code: 'custom', message: 'required', path: ['procedureItemIds'] });
  });
export type SummaryFilter = z.input<typeof summaryFilterSchema>;
export type SummaryFilterParsed = z.output<typeof summaryFilterSchema>;

/** One point of a series: the patients with a score in that visit window. */
export const summaryPointSchema = z.object({
  /** 0 is the baseline; then 4, 8 … 24 weeks after week 0 (the nearest 4-week mark). */
  week: z.number().int(),
  patients: z.number().int(),
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  /** 95 % confidence interval of the mean (Student's t, n − 1 degrees of freedom); null below 2 patients. */
  ciLow: z.number().nullable(),
  ciHigh: z.number().nullable(),
  /** Mean change from the same patients' baselines (positive = better, whatever the scale's direction). */
  meanImprovement: z.number().nullable(),
  /** Patients improved by at least the MCID, and their share of `patients` (null when no MCID is published). */
  mcidReached: z.number().int().nullable(),
  mcidPercent: z.number().nullable(),
});
export type SummaryPoint = z.infer<typeof summaryPointSchema>;

export const summarySeriesSchema = z.object({
  /** 'pain' or 'form-<code>'. */
  key: z.string(),
  formCode: z.number().int().nullable(),
  /** The scale the numbers are on: the form's maximum, or 100 when normalised. */
  maximum: z.number(),
  normalised: z.boolean(),
  higherIsBetter: z.boolean(),
  /** MCID in the series' own points (after normalising), and its source; null when none is published. */
  mcid: z.number().nullable(),
  mcidSource: z.string().nullable(),
  points: z.array(summaryPointSchema),
});
export type SummarySeries = z.infer<typeof summarySeriesSchema>;

export const summaryReportSchema = z.object({
  dataType: z.number().int(),
  anchor: z.enum(summaryAnchors),
  /** Patients matching the patient filters (before any score is required). */
  cohortPatients: z.number().int(),
  series: z.array(summarySeriesSchema),
  /** When the numbers were computed (reports read live data). */
  computedAt: z.string(),
});
export type SummaryReport = z.infer<typeof summaryReportSchema>;

/** Drill-down: the patients behind one point of one series. */
export const summaryPatientsRequestSchema = z.object({
  filter: summaryFilterSchema,
  seriesKey: z
    .string()
    .max(20, 'tooLong')
    .regex(/^(pain|form-\d{1,2})$/, 'invalid'),
  week: z.number().int().min(0).max(SUMMARY_VISIT_WEEKS_MAX),
  pageNumber: z.number().int().min(0).max(100_000).default(0),
  pageSize: z.number().int().min(1).max(200).default(15),
});
export type SummaryPatientsRequest = z.input<typeof summaryPatientsRequestSchema>;

export const summaryPatientRowSchema = z.object({
  patientId: idSchema,
  fullName: z.string(),
  dateOfBirth: z.string(),
  doctorName: z.string().nullable(),
  baselineDate: z.string(),
  baselineScore: z.number(),
  /** The score in the chosen window (equals the baseline at week 0). */
  scoreDate: z.string(),
  score: z.number(),
  improvement: z.number(),
  reachedMcid: z.boolean().nullable(),
});
export type SummaryPatientRow = z.infer<typeof summaryPatientRowSchema>;

export const summaryPatientsSchema = z.object({
  totalRecords: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  data: z.array(summaryPatientRowSchema),
});
export type SummaryPatients = z.infer<typeof summaryPatientsSchema>;

export const summaryExportRequestSchema = z.object({
  filter: summaryFilterSchema,
  level: z.enum(['aggregate', 'patients']),
  format: z.enum(['csv', 'xlsx']),
  language: z.enum(['en', 'es']).default('en'),
});
export type SummaryExportRequest = z.input<typeof summaryExportRequestSchema>;
