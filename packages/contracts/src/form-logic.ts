import {
  type AnswerValue,
  type Answers,
  type FormContent,
  type FormQuestion,
  type OptionValue,
  QuestionType,
  displayOnlyQuestionTypes,
  signatureAnswerSchema,
} from './forms.js';
import { EMAIL_PATTERN, US_ZIP_PATTERN } from './validation.js';

/**
 * Rules shared by the patient renderer (to guide the patient) and the server (to refuse what the
 * renderer would never send). Pure; no lists are looked up here — states, countries, time zones and
 * phone types arrive as the question's options or are checked by the caller.
 */

export type AnswerProblem =
  | 'required'
  | 'optionInvalid'
  | 'phoneInvalid'
  | 'zipInvalid'
  | 'taxIdInvalid'
  | 'emailInvalid'
  | 'dateInvalid'
  | 'numberInvalid'
  | 'numberOutOfRange'
  | 'signatureInvalid'
  | 'answerInvalid';

export function isAnswered(value: AnswerValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim().length > 0;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function matchesCondition(answer: AnswerValue | undefined, expected: OptionValue): boolean {
  if (Array.isArray(answer)) return answer.some((item) => String(item) === String(expected));
  if (answer === undefined || answer === null || typeof answer === 'object') return false;
  return String(answer) === String(expected);
}

/**
 * The questions the patient sees, in order, given the answers so far. A question whose condition
 * refers to a hidden question is hidden too, so a chain of conditions collapses as one.
 */
export function visibleQuestions(form: Pick<FormContent, 'questions'>, answers: Answers): FormQuestion[] {
  const visibleIds = new Set<string>();
  const visible: FormQuestion[] = [];
  for (const question of form.questions) {
    const condition = question.showWhen;
    if (
      condition &&
      (!visibleIds.has(condition.questionId) || !matchesCondition(answers[condition.questionId], condition.equals))
    ) {
      continue;
    }
    visibleIds.add(question.id);
    visible.push(question);
  }
  return visible;
}

export function takesAnswer(question: FormQuestion): boolean {
  return !displayOnlyQuestionTypes.includes(question.type);
}

const DIGITS = /\D/g;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function optionValues(question: FormQuestion): string[] {
  return (question.options ?? []).map((option) => String(option.value));
}

/** One answer against its question; `null` when it is acceptable. Unanswered optional questions pass. */
export function answerProblem(question: FormQuestion, value: AnswerValue | undefined): AnswerProblem | null {
  if (!takesAnswer(question)) return null;
  if (!isAnswered(value)) return question.required ? 'required' : null;
  switch (question.type) {
    case QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED:
    case QuestionType.LIKERT_SCALE:
    case QuestionType.DROP_DOWN_WITH_OPTION:
    case QuestionType.STATES:
    case QuestionType.COUNTRIES:
    case QuestionType.PATIENT_PHONENUMBER_TYPE:
    case QuestionType.TIME_ZONE: {
      if (typeof value !== 'string' && typeof value !== 'number') return 'answerInvalid';
      // States, countries, phone types and time zones may come without options; the caller checks the list.
      if (!question.options?.length) return typeof value === 'string' ? null : 'answerInvalid';
      return optionValues(question).includes(String(value)) ? null : 'optionInvalid';
    }
    case QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED: {
      if (!Array.isArray(value)) return 'answerInvalid';
      const allowed = optionValues(question);
      return value.every((item) => allowed.includes(String(item))) && new Set(value.map(String)).size === value.length
        ? null
        : 'optionInvalid';
    }
    case QuestionType.DESCRIPTIVE:
      return typeof value === 'string' ? null : 'answerInvalid';
    case QuestionType.PHONE_NUMBER:
      return typeof value === 'string' && value.replace(DIGITS, '').length === 10 ? null : 'phoneInvalid';
    case QuestionType.ZIP_CODE:
      return typeof value === 'string' && US_ZIP_PATTERN.test(value.trim()) ? null : 'zipInvalid';
    case QuestionType.TAX_ID:
      return typeof value === 'string' && /^\d{3}-?\d{2}-?\d{4}$|^\d{2}-?\d{7}$/.test(value.trim()) ? null : 'taxIdInvalid';
    case QuestionType.EMAIL:
      return typeof value === 'string' && EMAIL_PATTERN.test(value.trim()) ? null : 'emailInvalid';
    case QuestionType.DATE:
      return typeof value === 'string' && isCalendarDate(value) ? null : 'dateInvalid';
    case QuestionType.CHECKBOX:
      // A required checkbox ("I agree…") is answered only by ticking it.
      if (typeof value !== 'boolean') return 'answerInvalid';
      return question.required && !value ? 'required' : null;
    case QuestionType.NUMBER: {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'numberInvalid';
      if (question.min !== undefined && value < question.min) return 'numberOutOfRange';
      if (question.max !== undefined && value > question.max) return 'numberOutOfRange';
      return null;
    }
    case QuestionType.SIGNATURE:
      return signatureAnswerSchema.safeParse(value).success ? null : 'signatureInvalid';
    case QuestionType.INFO:
      return null;
    default:
      return 'answerInvalid';
  }
}

/**
 * Problems of a whole submission keyed by question id: every visible question checked, and answers to
 * hidden or unknown questions reported so the caller can drop or refuse them.
 */
export function formProblems(form: Pick<FormContent, 'questions'>, answers: Answers): Record<string, AnswerProblem | 'notAsked'> {
  const problems: Record<string, AnswerProblem | 'notAsked'> = {};
  const visible = visibleQuestions(form, answers);
  const visibleIds = new Set(visible.map((question) => question.id));
  for (const question of visible) {
    const problem = answerProblem(question, answers[question.id]);
    if (problem) problems[question.id] = problem;
  }
  for (const [questionId, value] of Object.entries(answers)) {
    if (!visibleIds.has(questionId) && isAnswered(value)) problems[questionId] = 'notAsked';
  }
  return problems;
}

/** Answers limited to the questions the patient could see: what a draft keeps after a condition flips. */
export function keepVisibleAnswers(form: Pick<FormContent, 'questions'>, answers: Answers): Answers {
  const kept: Answers = {};
  for (const question of visibleQuestions(form, answers)) {
    const value = answers[question.id];
    if (value !== undefined && takesAnswer(question)) kept[question.id] = value;
  }
  return kept;
}
