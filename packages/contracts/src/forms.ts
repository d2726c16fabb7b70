import { z } from 'zod';
import { idSchema } from './validation.js';

/**
 * One shape for every form a patient fills in: the 15 outcome instruments (built from
 * @pathwell/instruments definitions) and the clinic's custom forms (built by staff). The patient
 * renderer, the server's answer validation and the staff result pages all read this shape.
 */

export const formLanguages = ['en', 'es'] as const;
export type FormLanguage = (typeof formLanguages)[number];
export const formLanguageSchema = z.enum(formLanguages);

/** Text in English, with Spanish where a translation exists (for instruments: only a published one). */
export const localizedTextSchema = z.object({
  en: z.string().trim().min(1, 'required').max(4000, 'tooLong'),
  es: z.string().trim().max(4000, 'tooLong').optional(),
});
export type LocalizedText = z.infer<typeof localizedTextSchema>;

/** Custom question types 1 to 18 of specification section 3. */
export const QuestionType = {
  DESCRIPTIVE: 1,
  MULTIPLE_CHOICE_SINGLE_ALLOWED: 2,
  LIKERT_SCALE: 3,
  MULTIPLE_CHOICE_MULTIPLE_ALLOWED: 4,
  PHONE_NUMBER: 5,
  ZIP_CODE: 6,
  TAX_ID: 7,
  EMAIL: 8,
  STATES: 9,
  DROP_DOWN_WITH_OPTION: 10,
  DATE: 11,
  TIME_ZONE: 12,
  INFO: 13,
  PATIENT_PHONENUMBER_TYPE: 14,
  COUNTRIES: 15,
  CHECKBOX: 16,
  NUMBER: 17,
  SIGNATURE: 18,
} as const;
export type QuestionTypeCode = (typeof QuestionType)[keyof typeof QuestionType];
export const questionTypeCodes = Object.values(QuestionType) as QuestionTypeCode[];
export const questionTypeSchema = z
  .number()
  .int()
  .refine((value): value is QuestionTypeCode => (questionTypeCodes as number[]).includes(value), 'questionTypeInvalid');

/** Types whose answer is one of the question's own options. */
export const optionQuestionTypes: readonly QuestionTypeCode[] = [
  QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
  QuestionType.LIKERT_SCALE,
  QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED,
  QuestionType.DROP_DOWN_WITH_OPTION,
];
/** Types that only show text and take no answer. */
export const displayOnlyQuestionTypes: readonly QuestionTypeCode[] = [QuestionType.INFO];

export const optionValueSchema = z.union([z.number().finite(), z.string().trim().min(1).max(100)]);
export type OptionValue = z.infer<typeof optionValueSchema>;

export const questionOptionSchema = z.object({
  value: optionValueSchema,
  label: localizedTextSchema,
  /** Points this option adds to a custom form's total (custom screeners); instruments score in code. */
  score: z.number().finite().optional(),
});
export type QuestionOption = z.infer<typeof questionOptionSchema>;

/** Show the question only when an earlier question's answer equals (or, for several answers, includes) a value. */
export const showWhenSchema = z.object({ questionId: z.string().max(40), equals: optionValueSchema });
export type ShowWhen = z.infer<typeof showWhenSchema>;

export const QUESTION_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

export const formQuestionSchema = z.object({
  id: z.string().max(40, 'questionIdInvalid').regex(QUESTION_ID_PATTERN, 'questionIdInvalid'),
  type: questionTypeSchema,
  text: localizedTextSchema,
  help: localizedTextSchema.optional(),
  required: z.boolean(),
  sectionId: z.string().max(40).optional(),
  options: z.array(questionOptionSchema).max(100).optional(),
  /** NUMBER bounds (inclusive). */
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  showWhen: showWhenSchema.optional(),
  /** Instruments only: the item counts towards no score (PHQ-9 q10, SF-36 q2 alone, VR-12 q13/q14). */
  unscored: z.boolean().optional(),
});
export type FormQuestion = z.infer<typeof formQuestionSchema>;

export const formSectionSchema = z.object({
  id: z.string().min(1).max(40),
  title: localizedTextSchema,
  intro: localizedTextSchema.optional(),
});
export type FormSection = z.infer<typeof formSectionSchema>;

/** What a custom form's version holds; also the shape the builder edits. */
export const formContentSchema = z.object({
  title: localizedTextSchema,
  instructions: localizedTextSchema.optional(),
  /** Languages the patient may choose; 'es' only when every text has a Spanish version. */
  languages: z.array(formLanguageSchema).min(1),
  sections: z.array(formSectionSchema).max(50),
  questions: z.array(formQuestionSchema).min(1).max(300),
});
export type FormContent = z.infer<typeof formContentSchema>;

/** The form as the patient renderer receives it. */
export const renderableFormSchema = formContentSchema.extend({
  kind: z.enum(['instrument', 'custom']),
  /** Outcome form code 1..15 for instruments, null for custom forms. */
  formCode: z.number().int().min(1).max(15).nullable(),
  customFormId: idSchema.nullable(),
  /** Instrument version (e.g. 'RAND-36 1.0') or the custom form's version number. */
  version: z.string(),
  /** Credit and copyright lines that must be shown with the form (RAND-36, PHQ screeners). */
  credit: localizedTextSchema.optional(),
  /** Where a language is missing: why (shown to the patient, e.g. no validated Spanish translation). */
  languageNotice: localizedTextSchema.optional(),
});
export type RenderableForm = z.infer<typeof renderableFormSchema>;

/** Section 9: one question per page, back and review allowed, no time limit. */
export const quizDefaults = { questionsPerPage: 1, allowBack: true, allowReview: true, timeLimitSeconds: null } as const;

export const signatureAnswerSchema = z.object({
  /** PNG data URL from the signature pad. */
  image: z
    .string()
    .max(400_000, 'tooLong')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, 'signatureInvalid'),
  signedAt: z.iso.datetime({ offset: true }).max(40),
});
export type SignatureAnswer = z.infer<typeof signatureAnswerSchema>;

export const answerValueSchema = z.union([
  z.number().finite(),
  z.string().max(5000, 'tooLong'),
  z.boolean(),
  z.array(optionValueSchema).max(100),
  signatureAnswerSchema,
  z.null(),
]);
export type AnswerValue = z.infer<typeof answerValueSchema>;

export const answersSchema = z
  .record(z.string().regex(QUESTION_ID_PATTERN, 'questionIdInvalid'), answerValueSchema)
  .refine((answers) => Object.keys(answers).length <= 300, 'tooLong');
export type Answers = z.infer<typeof answersSchema>;

/** Scores as the instruments return them: numeric codes, null where not scorable. */
export const scoresSchema = z.record(z.string(), z.number().nullable());
export type Scores = z.infer<typeof scoresSchema>;

/**
 * Why a stored response carries no score (decision 0067): 'wordingNotLoaded', a licensed form answered
 * before the clinic loaded its wording, on neutral labels. Absent on a response that was scored.
 */
export const notScoredSchema = z.literal('wordingNotLoaded').optional();
