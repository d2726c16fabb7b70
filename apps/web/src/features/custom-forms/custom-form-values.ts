import { z } from 'zod';
import { checkboxConditionValues, saveCustomFormSchema } from '@pathwell/contracts/custom-forms';
import {
  QuestionType,
  optionQuestionTypes,
  type FormContent,
  type FormQuestion,
  type LocalizedText,
  type OptionValue,
  type QuestionTypeCode,
} from '@pathwell/contracts/forms';

/**
 * What the builder edits: every input holds a string (or '' for an empty number) so that fields stay
 * controlled; `toContent` turns it into the FormContent the API takes, keeping array positions so
 * that error paths (`questions.3.showWhen`) point at the same inputs on both sides.
 */
export type TextValues = { en: string; es: string };
export type OptionValues = { value: string; label: TextValues; score: number | '' };
export type QuestionValues = {
  id: string;
  type: QuestionTypeCode;
  text: TextValues;
  help: TextValues;
  required: boolean;
  sectionId: string;
  options: OptionValues[];
  min: number | '';
  max: number | '';
  showWhen: { questionId: string; equals: string };
};
export type SectionValues = { id: string; title: TextValues };
export type BuilderValues = {
  title: TextValues;
  instructions: TextValues;
  offerSpanish: boolean;
  sections: SectionValues[];
  questions: QuestionValues[];
};

export const emptyText = (): TextValues => ({ en: '', es: '' });
const NUMERIC = /^-?\d+(\.\d+)?$/;

export const isOptionType = (type: QuestionTypeCode) => optionQuestionTypes.includes(type);

/** Option values typed as numbers are stored as numbers (Likert 1 to 5), others as text. */
function toOptionValue(value: string): OptionValue {
  const trimmed = value.trim();
  return NUMERIC.test(trimmed) ? Number(trimmed) : trimmed;
}

function toText(text: TextValues): LocalizedText {
  const es = text.es.trim();
  return es ? { en: text.en.trim(), es } : { en: text.en.trim() };
}

const optionalText = (text: TextValues): LocalizedText | undefined =>
  text.en.trim() || text.es.trim() ? toText(text) : undefined;

function toQuestion(question: QuestionValues): FormQuestion {
  const content: FormQuestion = {
    id: question.id,
    type: question.type,
    text: toText(question.text),
    required: question.type === QuestionType.INFO ? false : question.required,
  };
  const help = optionalText(question.help);
  if (help) content.help = help;
  if (question.sectionId) content.sectionId = question.sectionId;
  if (isOptionType(question.type)) {
    content.options = question.options.map((option) => ({
      value: toOptionValue(option.value),
      label: toText(option.label),
      ...(option.score === '' ? {} : { score: option.score }),
    }));
  }
  if (question.type === QuestionType.NUMBER) {
    if (question.min !== '') content.min = question.min;
    if (question.max !== '') content.max = question.max;
  }
  if (question.showWhen.questionId) {
    const equals = question.showWhen.equals;
    content.showWhen = {
      questionId: question.showWhen.questionId,
      equals: (checkboxConditionValues as readonly string[]).includes(equals) ? equals : toOptionValue(equals),
    };
  }
  return content;
}

function toContent(values: BuilderValues): FormContent {
  const content: FormContent = {
    title: toText(values.title),
    languages: values.offerSpanish ? ['en', 'es'] : ['en'],
    sections: values.sections.map((section) => ({ id: section.id, title: toText(section.title) })),
    questions: values.questions.map(toQuestion),
  };
  const instructions = optionalText(values.instructions);
  if (instructions) content.instructions = instructions;
  return content;
}

const textValues = (text: LocalizedText | undefined): TextValues => ({ en: text?.en ?? '', es: text?.es ?? '' });

export function fromContent(content: FormContent): BuilderValues {
  return {
    title: textValues(content.title),
    instructions: textValues(content.instructions),
    offerSpanish: content.languages.includes('es'),
    sections: content.sections.map((section) => ({ id: section.id, title: textValues(section.title) })),
    questions: content.questions.map((question) => ({
      id: question.id,
      type: question.type,
      text: textValues(question.text),
      help: textValues(question.help),
      required: question.required,
      sectionId: question.sectionId ?? '',
      options: (question.options ?? []).map((option) => ({
        value: String(option.value),
        label: textValues(option.label),
        score: option.score ?? '',
      })),
      min: question.min ?? '',
      max: question.max ?? '',
      showWhen: { questionId: question.showWhen?.questionId ?? '', equals: String(question.showWhen?.equals ?? '') },
    })),
  };
}

export const emptyOption = (): OptionValues => ({ value: '', label: emptyText(), score: '' });

/** The next free `prefix<n>` identifier: ids stay stable when items move, so conditions keep pointing right. */
export function nextId(prefix: string, taken: readonly string[]): string {
  const numbers = taken.map((id) => (id.startsWith(prefix) ? Number(id.slice(prefix.length)) : 0)).filter(Number.isFinite);
  return `${prefix}${Math.max(0, ...numbers) + 1}`;
}

export function newQuestion(taken: readonly string[]): QuestionValues {
  return {
    id: nextId('q', taken),
    type: QuestionType.DESCRIPTIVE,
    text: emptyText(),
    help: emptyText(),
    required: false,
    sectionId: '',
    options: [],
    min: '',
    max: '',
    showWhen: { questionId: '', equals: '' },
  };
}

export const emptyBuilderValues = (): BuilderValues => ({
  title: emptyText(),
  instructions: emptyText(),
  offerSpanish: false,
  sections: [],
  questions: [newQuestion([])],
});

/** The builder's resolver schema: the contracts' save schema, applied to what the builder would send. */
export const builderSchema = z.custom<BuilderValues>().transform((values, ctx): FormContent => {
  const result = saveCustomFormSchema.safeParse(toContent(values));
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});
