import { z } from 'zod';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from './constants';
import {
  QuestionType,
  formContentSchema,
  optionQuestionTypes,
  type FormContent,
  type FormQuestion,
  type LocalizedText,
} from './forms';
import type { ValidationMessageKey } from './messages';
import { idSchema } from './validation';

/** A clinic's custom forms built by Admins and System Managers (docs/decisions/0018-custom-forms.md). */

const booleanQuery = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((value) => value === true || value === 'true');

export const customFormListQuerySchema = z.object({
  pageSize: z.coerce.number().int('invalid').min(1, 'numberOutOfRange').max(100, 'numberOutOfRange').default(PAGE_SIZE_DEFAULT),
  pageNumber: z.coerce.number().int('invalid').min(0, 'numberOutOfRange').default(PAGE_NUMBER_DEFAULT),
  /** Title contains, case-insensitive. */
  title: z
    .string()
    .trim()
    .max(200, 'tooLong')
    .optional()
    .transform((value) => value || undefined),
  /** false (default): the forms in use; true: the archived ones. */
  archived: booleanQuery.default(false),
});
export type CustomFormListQuery = z.output<typeof customFormListQuerySchema>;

export const customFormListItemSchema = z.object({
  id: idSchema,
  title: z.string(),
  currentVersion: z.number().int(),
  questionCount: z.number().int(),
  responseCount: z.number().int(),
  updatedAt: z.string(),
  archived: z.boolean(),
});
export type CustomFormListItem = z.infer<typeof customFormListItemSchema>;

export const customFormPageSchema = z.object({
  totalRecords: z.number(),
  pageNumber: z.number(),
  pageSize: z.number(),
  data: z.array(customFormListItemSchema),
  message: z.string(),
});
export type CustomFormPage = z.infer<typeof customFormPageSchema>;

export const customFormVersionSummarySchema = z.object({
  version: z.number().int(),
  createdAt: z.string(),
  responseCount: z.number().int(),
});
export type CustomFormVersionSummary = z.infer<typeof customFormVersionSummarySchema>;

export const customFormDetailSchema = z.object({
  id: idSchema,
  currentVersion: z.number().int(),
  archived: z.boolean(),
  content: formContentSchema,
  versions: z.array(customFormVersionSummarySchema),
});
export type CustomFormDetail = z.infer<typeof customFormDetailSchema>;

export const customFormVersionSchema = z.object({
  id: idSchema,
  version: z.number().int(),
  createdAt: z.string(),
  content: formContentSchema,
});
export type CustomFormVersion = z.infer<typeof customFormVersionSchema>;

export const customFormVersionParamsSchema = z.object({
  id: idSchema,
  version: z.coerce.number().int('invalid').min(1, 'invalid').max(100_000, 'invalid'),
});

/** Values a "show only when" condition on a checkbox may compare with (the answer is true or false). */
export const checkboxConditionValues = ['true', 'false'] as const;

function textsOf(content: FormContent): LocalizedText[] {
  const texts: LocalizedText[] = [content.title];
  if (content.instructions) texts.push(content.instructions);
  for (const section of content.sections) {
    texts.push(section.title);
    if (section.intro) texts.push(section.intro);
  }
  for (const question of content.questions) {
    texts.push(question.text);
    if (question.help) texts.push(question.help);
    for (const option of question.options ?? []) texts.push(option.label);
  }
  return texts;
}

export const hasSpanishEverywhere = (content: FormContent): boolean =>
  textsOf(content).every((text) => (text.es ?? '').trim().length > 0);

function conditionValues(question: FormQuestion): string[] | null {
  if (question.type === QuestionType.CHECKBOX) return [...checkboxConditionValues];
  if (question.options?.length) return question.options.map((option) => String(option.value));
  return null;
}

/**
 * Rules of a form's structure that a field-by-field schema cannot express, keyed by field path
 * (`questions.3.showWhen`). Empty when the form can be saved. The server enforces them; the builder
 * shows them before sending.
 */
export function customFormContentProblems(content: FormContent): Record<string, ValidationMessageKey> {
  const problems: Record<string, ValidationMessageKey> = {};
  const sectionIds = new Set<string>();
  content.sections.forEach((section, index) => {
    if (sectionIds.has(section.id)) problems[`sections.${index}.id`] = 'sectionIdTaken';
    sectionIds.add(section.id);
  });

  const earlier = new Map<string, FormQuestion>();
  content.questions.forEach((question, index) => {
    const at = (field: string) => `questions.${index}.${field}`;
    if (earlier.has(question.id)) problems[at('id')] = 'questionIdTaken';
    if (question.sectionId !== undefined && !sectionIds.has(question.sectionId)) problems[at('sectionId')] = 'sectionUnknown';

    if (optionQuestionTypes.includes(question.type)) {
      const options = question.options ?? [];
      if (options.length < 2) problems[at('options')] = 'optionsTooFew';
      const seen = new Set<string>();
      options.forEach((option, optionIndex) => {
        const value = String(option.value);
        if (seen.has(value)) problems[at(`options.${optionIndex}.value`)] = 'optionValueTaken';
        seen.add(value);
      });
    }

    if (
      question.type === QuestionType.NUMBER &&
      question.min !== undefined &&
      question.max !== undefined &&
      question.min > question.max
    ) {
      problems[at('max')] = 'rangeInvalid';
    }

    if (question.showWhen) {
      const source = earlier.get(question.showWhen.questionId);
      const allowed = source ? conditionValues(source) : null;
      if (!allowed || !allowed.includes(String(question.showWhen.equals))) problems[at('showWhen')] = 'showWhenInvalid';
    }
    if (!earlier.has(question.id)) earlier.set(question.id, question);
  });

  if (content.languages.includes('es') && !hasSpanishEverywhere(content)) problems.languages = 'spanishMissing';
  return problems;
}

/** The body of `POST /api/customforms` and `PUT /api/customforms/{id}`: the form content, checked whole. */
export const saveCustomFormSchema = formContentSchema.superRefine((content, issues) => {
  for (const [path, message] of Object.entries(customFormContentProblems(content))) {
    issues.addIssue({ code: 'custom', message, path: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)) });
  }
});
export type SaveCustomForm = z.infer<typeof saveCustomFormSchema>;
