import { describe, expect, it } from 'vitest';
import { type FormQuestion, QuestionType } from '@pathwell/contracts/forms';
import { answerDisplay } from './answer-format';

const question = (type: number, extra: Partial<FormQuestion> = {}): FormQuestion =>
  ({ id: 'q1', type, text: { en: 'Q' }, required: false, ...extra }) as FormQuestion;

describe('one reading of an answer for patients and staff', () => {
  it('writes a date out in the form language instead of the stored ISO text', () => {
    expect(answerDisplay(question(QuestionType.DATE), '2024-03-05', 'en')).toEqual({ kind: 'text', text: 'March 5, 2024' });
    expect(answerDisplay(question(QuestionType.DATE), '2024-03-05', 'es')).toEqual({ kind: 'text', text: '5 de marzo de 2024' });
  });

  it('names a list answer (a US state) instead of its code, and an option by its label', () => {
    const states = [{ value: 'TX', label: { en: 'Texas', es: 'Texas' } }];
    expect(answerDisplay(question(QuestionType.STATES), 'TX', 'en', states)).toEqual({ kind: 'text', text: 'Texas' });
    const options = [
      { value: 1, label: { en: 'Often', es: 'A menudo' } },
      { value: 2, label: { en: 'Never', es: 'Nunca' } },
    ];
    expect(answerDisplay(question(QuestionType.CHECKBOX, { options } as never), [1, 2], 'es')).toEqual({
      kind: 'text',
      text: 'A menudo, Nunca',
    });
  });

  it('tells empty, yes/no and signatures apart', () => {
    expect(answerDisplay(question(QuestionType.DATE), undefined, 'en')).toEqual({ kind: 'empty' });
    expect(answerDisplay(question(QuestionType.DATE), true, 'en')).toEqual({ kind: 'yes' });
    expect(
      answerDisplay(question(QuestionType.DATE), { image: 'data:x', signedAt: '2025-01-01T00:00:00Z' } as never, 'en'),
    ).toMatchObject({
      kind: 'signature',
    });
  });
});
