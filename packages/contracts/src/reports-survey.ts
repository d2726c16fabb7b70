import { z } from 'zod';
import { DateFilterPreset, type DateFilterPresetValue } from './appointments';
import { LANGUAGES } from './constants';
import { idSchema, optionalMdyDaySchema } from './validation';

/**
 * The survey report (/reports/surveyreport; issue #14 §4; decision 0047): how many assigned forms were
 * sent, opened and completed, per form and per week or month of the clinic's calendar.
 */

export const reportPeriods = ['week', 'month'] as const;
export type ReportPeriod = (typeof reportPeriods)[number];

const presetValues = Object.values(DateFilterPreset) as number[];
/** The presets a report offers: every published one except "tomorrow" and a fixed day. */
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
] as const satisfies readonly DateFilterPresetValue[];

const dayNumber = (mdy: string) => {
  const [month, day, year] = mdy.split('/').map(Number) as [number, number, number];
  return year * 10_000 + month * 100 + day;
};

/** The date and period fields both activity reports share; "this year" by month unless told otherwise. */
export const reportPeriodFilterFields = {
  dateFilter: z.coerce
    .number('invalid')
    .int('invalid')
    .refine((value) => presetValues.includes(value) && value !== DateFilterPreset.FixedDate, 'invalid')
    .default(DateFilterPreset.ThisYear)
    .transform((value) => value as DateFilterPresetValue),
  /** Custom range (9): MM/DD/YYYY clinic days, both included. */
  startDate: optionalMdyDaySchema,
  endDate: optionalMdyDaySchema,
  period: z.enum(reportPeriods, 'invalid').default('month'),
  doctorId: z
    .union([idSchema, z.literal(''), z.null()])
    .optional()
    .transform((value) => value || null),
};

export function checkReportPeriodFilter(
  value: { dateFilter: number; startDate?: string; endDate?: string },
  context: z.RefinementCtx,
) {
  if (value.dateFilter !== DateFilterPreset.CustomRange) return;
  if (!value.startDate) context.addIssue({ code: 'custom', message: 'required', path: ['startDate'] });
  if (!value.endDate) context.addIssue({ code: 'custom', message: 'required', path: ['endDate'] });
  if (value.startDate && value.endDate && dayNumber(value.startDate) > dayNumber(value.endDate))
    context.addIssue({ code: 'custom', message: 'dateRangeInvalid', path: ['endDate'] });
}

/** 'pro-<code>' for an outcome form, 'cf-<id>' for a custom form (the intake's own form keys). */
export const surveyFormKeySchema = z.string().max(40);

export const surveyFilterSchema = z
  .object({
    ...reportPeriodFilterFields,
    /** One outcome form (1–15) or one custom form; neither: every form. */
    formCode: z.number().int().min(1, 'invalid').max(15, 'invalid').nullish(),
    customFormId: idSchema.nullish(),
    language: z.enum(LANGUAGES).default('en'),
  })
  .superRefine(checkReportPeriodFilter);
export type SurveyFilter = z.infer<typeof surveyFilterSchema>;
export type SurveyFilterInput = z.input<typeof surveyFilterSchema>;

const measures = {
  sent: z.number().int(),
  opened: z.number().int(),
  completed: z.number().int(),
  /** completed ÷ sent, 0–1; null when nothing was sent. */
  completionRate: z.number().nullable(),
  /** Median of (completed − sent) over the completed ones, in minutes; null when none completed. */
  medianMinutesToComplete: z.number().nullable(),
};

export const surveyFormSchema = z.object({
  formKey: surveyFormKeySchema,
  formCode: z.number().int().nullable(),
  customFormId: idSchema.nullable(),
  formName: z.string(),
  ...measures,
});
export type SurveyForm = z.infer<typeof surveyFormSchema>;

export const surveyPeriodRowSchema = z.object({
  /** First day of the week (Sunday, as the date presets count weeks) or month, YYYY-MM-DD, clinic calendar. */
  period: z.string(),
  formKey: surveyFormKeySchema,
  formName: z.string(),
  ...measures,
});
export type SurveyPeriodRow = z.infer<typeof surveyPeriodRowSchema>;

export const surveyReportSchema = z.object({
  period: z.enum(reportPeriods),
  timeZone: z.string(),
  /** The window as UTC instants, half-open [from, to). */
  from: z.string(),
  to: z.string(),
  periods: z.array(surveyPeriodRowSchema),
  forms: z.array(surveyFormSchema),
  totals: z.object(measures),
});
export type SurveyReport = z.infer<typeof surveyReportSchema>;

/** POST /api/reports/surveyreport/items: one custom form version's answers. */
export const surveyItemsRequestSchema = z.object({
  customFormId: idSchema,
  /** The custom form's version number; absent: its current version. */
  version: z.number().int().min(1, 'invalid').max(100_000, 'invalid').nullish(),
  filter: surveyFilterSchema.prefault({}),
});
export type SurveyItemsRequest = z.infer<typeof surveyItemsRequestSchema>;
export type SurveyItemsRequestInput = z.input<typeof surveyItemsRequestSchema>;

export const surveyAnswerCountSchema = z.object({
  /** The stored value as text (option value, 'true'/'false', a state code …). */
  value: z.string(),
  /** The option's label in the request language, else the value itself. */
  label: z.string(),
  count: z.number().int(),
});

export const surveyQuestionSchema = z.object({
  questionId: z.string(),
  text: z.string(),
  type: z.number().int(),
  /** 'values': each answer counted; 'answered': free text, dates, signatures — only how many answered. */
  kind: z.enum(['values', 'answered']),
  answered: z.number().int(),
  answers: z.array(surveyAnswerCountSchema),
});
export type SurveyQuestion = z.infer<typeof surveyQuestionSchema>;

export const surveyItemsSchema = z.object({
  customFormId: idSchema,
  title: z.string(),
  version: z.number().int(),
  versions: z.array(z.object({ version: z.number().int(), responses: z.number().int() })),
  responses: z.number().int(),
  questions: z.array(surveyQuestionSchema),
});
export type SurveyItems = z.infer<typeof surveyItemsSchema>;

/** GET /api/reports/surveyreport/forms: what the form pickers offer. */
export const surveyFormOptionsSchema = z.object({
  customForms: z.array(z.object({ id: idSchema, title: z.string(), currentVersion: z.number().int() })),
});
export type SurveyFormOptions = z.infer<typeof surveyFormOptionsSchema>;
