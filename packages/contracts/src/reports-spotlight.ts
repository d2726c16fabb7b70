import { z } from 'zod';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from './constants';
import { idSchema } from './validation';

/**
 * The patient spotlight (/reports/patientsspotlight; specification sections 3 "Spotlight filter" and 7
 * "patientsSpotlight", "patientsspotlightpdf", "hassuccessstorybeenshared"; issue #14 §2; decision 0045).
 */

/**
 * The visit pain score (0–10, lower is better) has an MCID of 2 points: Farrar JT, Young JP, LaMoreaux L,
 * Werth JL, Poole RM. Clinical importance of changes in chronic pain intensity measured on an 11-point
 * numerical pain rating scale. Pain 2001;94:149–158.
 */
export const PAIN_MCID = {
  points: 2,
  source: 'Farrar JT et al., Pain 2001;94:149–158 (2 points on the 0–10 scale)',
} as const;

/** A follow-up counts as "latest" only this many clinic days or more after the baseline's (decisions 0045, 0060). */
export const SPOTLIGHT_FOLLOW_UP_DAYS = 28;
export const SPOTLIGHT_FACTOR_MIN = 0.5;
export const SPOTLIGHT_FACTOR_MAX = 10;
export const SPOTLIGHT_FACTOR_STEP = 0.5;
export const SPOTLIGHT_PAGE_SIZE_MAX = 100;
export const SUCCESS_STORY_MAX = 2000;

const name = z.string().trim().max(100, 'tooLong').nullish();

export const spotlightFilterSchema = z.object({
  /** Multiples of the measure's MCID a patient must have improved by (baseline → latest). */
  improvementFactor: z
    .number({ error: 'numberInvalid' })
    .min(SPOTLIGHT_FACTOR_MIN, 'numberOutOfRange')
    .max(SPOTLIGHT_FACTOR_MAX, 'numberOutOfRange')
    .default(1),
  /** Outcome form whose headline is the measure; null or absent = the visit pain score. Needs a published MCID. */
  formCode: z.number().int('invalid').min(1, 'optionInvalid').max(15, 'optionInvalid').nullish(),
  /** Items of the clinic's Referrals list. */
  referringProviderIds: z.array(idSchema).max(200, 'tooLong').default([]),
  patientFirstName: name,
  patientLastName: name,
  doctorId: idSchema.nullish(),
  pageSize: z
    .number()
    .int('invalid')
    .min(1, 'numberOutOfRange')
    .max(SPOTLIGHT_PAGE_SIZE_MAX, 'numberOutOfRange')
    .default(PAGE_SIZE_DEFAULT),
  pageNumber: z.number().int('invalid').min(0, 'numberOutOfRange').default(PAGE_NUMBER_DEFAULT),
});
export type SpotlightFilter = z.input<typeof spotlightFilterSchema>;

const scorePoint = z.object({
  /** Clinic day, YYYY-MM-DD. */
  date: z.string(),
  score: z.number(),
});

export const spotlightProcedureSchema = z.object({
  name: z.string(),
  /** YYYY-MM-DD */
  performedOn: z.string(),
  kind: z.enum(['procedure', 'injection', 'pump']),
});
export type SpotlightProcedure = z.infer<typeof spotlightProcedureSchema>;

export const spotlightRowSchema = z.object({
  patientId: idSchema,
  fullName: z.string(),
  referringProvider: z.string().nullable(),
  baseline: scorePoint,
  latest: scorePoint,
  /**
   * How much better the latest score is than the baseline, in the measure's points: baseline − latest when
   * lower is better (pain, ODI, NDI), latest − baseline when higher is better; positive = better, negative =
   * worse. The one sign convention of every report (decision 0060).
   */
  improvement: z.number(),
  /** `improvement` in multiples of the MCID (same sign). */
  improvementInMcids: z.number(),
  /** Procedures and injections performed from the baseline day to the latest day, oldest first. */
  procedures: z.array(spotlightProcedureSchema),
  successStoryShared: z.boolean(),
  successStory: z.string().nullable(),
});
export type SpotlightRow = z.infer<typeof spotlightRowSchema>;

export const spotlightPageSchema = z.object({
  totalRecords: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  /** The measure the rows use: its name, MCID and direction. */
  measure: z.object({
    formCode: z.number().int().nullable(),
    mcid: z.number(),
    mcidSource: z.string(),
    higherIsBetter: z.boolean(),
    maximum: z.number(),
  }),
  data: z.array(spotlightRowSchema),
});
export type SpotlightPage = z.infer<typeof spotlightPageSchema>;

export const spotlightPdfQuerySchema = z.object({
  patientId: idSchema,
  formCode: z.coerce.number().int('invalid').min(1, 'optionInvalid').max(15, 'optionInvalid').optional(),
  language: z.enum(['en', 'es']).default('en'),
});

export const successStorySchema = z.object({
  patientId: idSchema,
  /** The patient agreed that their words may be shared (printed on the spotlight PDF). */
  shared: z.boolean(),
  /** Their words; absent keeps the story already recorded, an empty text removes it. */
  story: z.string().trim().max(SUCCESS_STORY_MAX, 'tooLong').optional(),
});
export type SuccessStoryInput = z.input<typeof successStorySchema>;

export const successStorySavedSchema = z.object({
  patientId: idSchema,
  successStory: z.string().nullable(),
  successStorySharedAt: z.string().nullable(),
});
export type SuccessStorySaved = z.infer<typeof successStorySavedSchema>;
