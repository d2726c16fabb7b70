import { describe, expect, it } from 'vitest';
import { answerProblem, formProblems, keepVisibleAnswers, visibleQuestions } from './form-logic';
import { QuestionType, type FormQuestion } from './forms';

const text = (en: string) => ({ en });
const yesNo = [
  { value: 'yes', label: text('Yes') },
  { value: 'no', label: text('No') },
];

const form = {
  questions: [
    { id: 'pain', type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED, text: text('Pain?'), required: true, options: yesNo },
    {
      id: 'where',
      type: QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED,
      text: text('Where?'),
      required: true,
      options: [
        { value: 'back', label: text('Back') },
        { value: 'knee', label: text('Knee') },
      ],
      showWhen: { questionId: 'pain', equals: 'yes' },
    },
    {
      id: 'kneeDays',
      type: QuestionType.NUMBER,
      text: text('Days?'),
      required: false,
      min: 0,
      max: 7,
      showWhen: { questionId: 'where', equals: 'knee' },
    },
    { id: 'note', type: QuestionType.INFO, text: text('Thank you'), required: false },
  ] satisfies FormQuestion[],
};

const question = (type: FormQuestion['type'], extra: Partial<FormQuestion> = {}): FormQuestion => ({
  id: 'q',
  type,
  text: text('Q'),
  required: true,
  ...extra,
});

describe('visibleQuestions', () => {
  it('shows a conditional question only when the earlier answer matches, and collapses a chain of conditions', () => {
    expect(visibleQuestions(form, {}).map((q) => q.id)).toEqual(['pain', 'note']);
    expect(visibleQuestions(form, { pain: 'yes' }).map((q) => q.id)).toEqual(['pain', 'where', 'note']);
    expect(visibleQuestions(form, { pain: 'yes', where: ['back', 'knee'] }).map((q) => q.id)).toEqual([
      'pain',
      'where',
      'kneeDays',
      'note',
    ]);
    // "where" is hidden again, so the question that depends on it hides too, whatever it still holds.
    expect(visibleQuestions(form, { pain: 'no', where: ['knee'] }).map((q) => q.id)).toEqual(['pain', 'note']);
  });
});

describe('answerProblem', () => {
  it('requires an answer to a required question and lets an optional one be skipped', () => {
    expect(answerProblem(question(QuestionType.DESCRIPTIVE), undefined)).toBe('required');
    expect(answerProblem(question(QuestionType.DESCRIPTIVE), '   ')).toBe('required');
    expect(answerProblem(question(QuestionType.DESCRIPTIVE, { required: false }), null)).toBeNull();
    expect(answerProblem(question(QuestionType.INFO), undefined)).toBeNull();
  });

  it('accepts only the question’s own options, once each', () => {
    const single = question(QuestionType.LIKERT_SCALE, {
      options: [
        { value: 0, label: text('0') },
        { value: 1, label: text('1') },
      ],
    });
    expect(answerProblem(single, 1)).toBeNull();
    expect(answerProblem(single, 2)).toBe('optionInvalid');
    const several = question(QuestionType.MULTIPLE_CHOICE_MULTIPLE_ALLOWED, { options: yesNo });
    expect(answerProblem(several, ['yes'])).toBeNull();
    expect(answerProblem(several, ['yes', 'yes'])).toBe('optionInvalid');
    expect(answerProblem(several, ['maybe'])).toBe('optionInvalid');
    expect(answerProblem(several, 'yes')).toBe('answerInvalid');
  });

  it('checks the formats of phone, ZIP, tax id, email, date and number answers', () => {
    expect(answerProblem(question(QuestionType.PHONE_NUMBER), '(555) 123-4567')).toBeNull();
    expect(answerProblem(question(QuestionType.PHONE_NUMBER), '555-1234')).toBe('phoneInvalid');
    expect(answerProblem(question(QuestionType.ZIP_CODE), '78701-1234')).toBeNull();
    expect(answerProblem(question(QuestionType.ZIP_CODE), '7870')).toBe('zipInvalid');
    expect(answerProblem(question(QuestionType.TAX_ID), '123-45-6789')).toBeNull();
    expect(answerProblem(question(QuestionType.TAX_ID), '12-3456789')).toBeNull();
    expect(answerProblem(question(QuestionType.TAX_ID), '1234')).toBe('taxIdInvalid');
    expect(answerProblem(question(QuestionType.EMAIL), 'ana@example.com')).toBeNull();
    expect(answerProblem(question(QuestionType.EMAIL), 'ana@')).toBe('emailInvalid');
    expect(answerProblem(question(QuestionType.DATE), '2024-02-29')).toBeNull();
    expect(answerProblem(question(QuestionType.DATE), '2023-02-29')).toBe('dateInvalid');
    const days = question(QuestionType.NUMBER, { min: 0, max: 7 });
    expect(answerProblem(days, 7)).toBeNull();
    expect(answerProblem(days, 8)).toBe('numberOutOfRange');
    expect(answerProblem(days, '3')).toBe('numberInvalid');
  });

  it('takes a required checkbox only when ticked, and a signature only as a PNG with its time', () => {
    expect(answerProblem(question(QuestionType.CHECKBOX), true)).toBeNull();
    expect(answerProblem(question(QuestionType.CHECKBOX), false)).toBe('required');
    const signature = question(QuestionType.SIGNATURE);
    expect(
      answerProblem(signature, { image: 'data:image/png;base64,iVBORw0KGgo=', signedAt: '2026-11-21T10:00:00Z' }),
    ).toBeNull();
    expect(answerProblem(signature, { image: 'data:image/svg+xml;base64,PHN2Zz4=', signedAt: '2026-11-21T10:00:00Z' })).toBe(
      'signatureInvalid',
    );
    expect(answerProblem(signature, 'Ana Ruiz')).toBe('signatureInvalid');
  });
});

describe('formProblems and keepVisibleAnswers', () => {
  it('reports every visible problem and any answer to a question the patient was not asked', () => {
    expect(formProblems(form, {})).toEqual({ pain: 'required' });
    expect(formProblems(form, { pain: 'yes' })).toEqual({ where: 'required' });
    expect(formProblems(form, { pain: 'no', where: ['knee'] })).toEqual({ where: 'notAsked' });
    expect(formProblems(form, { pain: 'yes', where: ['knee'], kneeDays: 3 })).toEqual({});
  });

  it('keeps only the answers to questions still shown', () => {
    expect(keepVisibleAnswers(form, { pain: 'no', where: ['knee'], kneeDays: 2, note: 'x' })).toEqual({ pain: 'no' });
  });
});
