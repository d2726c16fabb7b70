import { renderableFormSchema } from '@pathwell/contracts/forms';
import { describe, expect, it } from 'vitest';
import { applyLicensedWording, headlineOf, instrumentForm, licensedWordingSchema, type LicensedWording } from '../index.js';
import { ort } from './09-ort.js';
import { phq2 } from './10-phq2.js';
import { phq9 } from './11-phq9.js';
import { gad7 } from './12-gad7.js';
import { soappR } from './13-soappr.js';
import { auditC } from './14-auditc.js';
import { cesdR } from './15-cesdr.js';

/** Answers q1..qN from a list of codes. */
function answersOf(codes: number[], extra: Record<string, number> = {}): Record<string, number> {
  return { ...Object.fromEntries(codes.map((code, index) => [`q${index + 1}`, code])), ...extra };
}

/** Codes summing to `total` over `count` items of at most `top` each, front-loaded. */
function codesSumming(total: number, count: number, top: number): number[] {
  return Array.from({ length: count }, (_, index) => Math.max(0, Math.min(top, total - index * top)));
}

describe('ORT', () => {
  it('weights family alcohol history 1 for women and 3 for men', () => {
    const onlyFamilyAlcohol = answersOf([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ort.score({ ...onlyFamilyAlcohol, sex: 1 }).total).toBe(1);
    expect(ort.score({ ...onlyFamilyAlcohol, sex: 2 }).total).toBe(3);
  });

  it('gives preadolescent sexual abuse 3 points for women and none for men', () => {
    const onlyAbuse = answersOf([0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    expect(ort.score({ ...onlyAbuse, sex: 1 })).toEqual({ total: 3, riskCategory: 0 });
    expect(ort.score({ ...onlyAbuse, sex: 2 })).toEqual({ total: 0, riskCategory: 0 });
  });

  it.each([
    [[0, 0, 0, 0, 0, 0, 0, 1, 0, 0], 3, 0],
    [[0, 0, 0, 0, 0, 0, 1, 1, 0, 0], 4, 1],
    [[0, 0, 0, 0, 0, 1, 0, 0, 0, 1], 6, 1],
    [[0, 0, 0, 0, 0, 1, 0, 0, 1, 0], 7, 1],
    [[0, 0, 0, 0, 0, 1, 1, 0, 1, 0], 8, 2],
  ])('female answers %j total %i, risk category %i (low ≤3, moderate 4–7, high ≥8)', (codes, total, category) => {
    expect(ort.score(answersOf(codes, { sex: 1 }))).toEqual({ total, riskCategory: category });
  });

  it('does not score without sex, or with a sex code other than 1 and 2', () => {
    const answers = answersOf([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(ort.score(answers)).toEqual({ total: null, riskCategory: null });
    expect(ort.score({ ...answers, sex: 3 })).toEqual({ total: null, riskCategory: null });
  });
});

describe('PHQ-2', () => {
  it('screens positive from 3', () => {
    expect(phq2.score(answersOf([1, 1]))).toEqual({ total: 2, screenPositive: 0 });
    expect(phq2.score(answersOf([0, 3]))).toEqual({ total: 3, screenPositive: 1 });
  });
});

describe('PHQ-9', () => {
  it.each([
    [4, 0],
    [5, 1],
    [9, 1],
    [10, 2],
    [14, 2],
    [15, 3],
    [19, 3],
    [20, 4],
    [27, 4],
  ])('total %i is severity %i', (total, severity) => {
    expect(phq9.score(answersOf(codesSumming(total, 9, 3), { q10: 0 })).severity).toBe(severity);
  });

  it('scores without the unscored difficulty question', () => {
    expect(phq9.score(answersOf([1, 1, 1, 1, 1, 0, 0, 0, 0]))).toEqual({ total: 5, severity: 1, item9Positive: 0 });
  });

  it('flags item 9 at any level whatever the total', () => {
    expect(phq9.score(answersOf([0, 0, 0, 0, 0, 0, 0, 0, 1])).item9Positive).toBe(1);
  });

  it('does not score an answer outside the item codes', () => {
    expect(phq9.score(answersOf([4, 0, 0, 0, 0, 0, 0, 0, 0])).total).toBeNull();
  });
});

describe('GAD-7', () => {
  it.each([
    [4, 0],
    [5, 1],
    [9, 1],
    [10, 2],
    [14, 2],
    [15, 3],
    [21, 3],
  ])('total %i is severity %i', (total, severity) => {
    expect(gad7.score(answersOf(codesSumming(total, 7, 3)))).toEqual({ total, severity });
  });
});

describe('SOAPP-R', () => {
  it('is positive from 18', () => {
    expect(soappR.score(answersOf(codesSumming(17, 24, 4))).positive).toBe(0);
    expect(soappR.score(answersOf(codesSumming(18, 24, 4))).positive).toBe(1);
  });
});

describe('AUDIT-C', () => {
  it.each([
    [1, 2, 0],
    [1, 3, 1],
    [2, 3, 0],
    [2, 4, 1],
  ])('sex %i with total %i screens %i (women from 3, men from 4)', (sex, total, positive) => {
    expect(auditC.score(answersOf(codesSumming(total, 3, 4), { sex }))).toEqual({ total, screenPositive: positive });
  });

  it('keeps its cut-offs as data', () => {
    expect(auditC.cutoffs).toEqual({ female: 3, male: 4 });
  });
});

describe('CESD-R', () => {
  const none = () => Array.from({ length: 20 }, () => 0);
  function withCodes(codes: Record<number, number>): Record<string, number> {
    const all = none();
    for (const [item, code] of Object.entries(codes)) all[Number(item) - 1] = code;
    return answersOf(all);
  }

  it('counts "nearly every day for 2 weeks" as 3 in the total', () => {
    expect(cesdR.score(withCodes({ 1: 4 })).total).toBe(3);
  });

  it('checks the categories in order: meets criteria before probable before possible', () => {
    // dysphoria at 4; appetite, sleep, thinking, guilt at 4 → meets criteria even at a total of 15
    expect(cesdR.score(withCodes({ 2: 4, 1: 4, 5: 4, 3: 4, 9: 4 }))).toEqual({ total: 15, category: 4 });
    // three other groups at 4 → probable
    expect(cesdR.score(withCodes({ 2: 4, 1: 4, 5: 4, 3: 4 })).category).toBe(3);
    // three other groups at 3 → probable; two → possible
    expect(cesdR.score(withCodes({ 8: 4, 1: 3, 5: 3, 3: 3 })).category).toBe(3);
    expect(cesdR.score(withCodes({ 8: 4, 1: 3, 5: 3 })).category).toBe(2);
  });

  it('does not count the second core group as one of the other groups', () => {
    // dysphoria and anhedonia at 4, one other group at 3: not possible MDE; total 9 → no significance
    expect(cesdR.score(withCodes({ 2: 4, 8: 4, 1: 3 }))).toEqual({ total: 9, category: 0 });
  });

  it('needs a core group at 4 for the episode categories', () => {
    expect(cesdR.score(withCodes({ 2: 3, 1: 4, 5: 4, 3: 4, 9: 4, 7: 4, 12: 4 }))).toEqual({ total: 21, category: 1 });
  });

  it('separates no significance and subthreshold at 16', () => {
    expect(cesdR.score(answersOf(codesSumming(15, 20, 1))).category).toBe(0);
    expect(cesdR.score(answersOf(codesSumming(16, 20, 1))).category).toBe(1);
  });
});

describe('forms 9–15 as patients see them', () => {
  it.each([9, 10, 11, 12, 13, 14, 15] as const)('form %i is a valid renderable form', (formCode) => {
    const form = instrumentForm(formCode);
    expect(renderableFormSchema.safeParse(form).success).toBe(true);
    expect(form).toMatchObject({ kind: 'instrument', formCode, customFormId: null });
  });

  it('offers PHQ-2, PHQ-9 and GAD-7 in Spanish, with a Spanish text for every text', () => {
    for (const formCode of [10, 11, 12] as const) {
      const form = instrumentForm(formCode);
      expect(form.languages).toEqual(['en', 'es']);
      expect(form.languageNotice).toBeUndefined();
      for (const question of form.questions) {
        expect(question.text.es).toBeTruthy();
        for (const option of question.options ?? []) expect(option.label.es).toBeTruthy();
      }
    }
  });

  it('tells the patient when a form is in English only', () => {
    for (const formCode of [9, 13, 14, 15] as const) {
      const form = instrumentForm(formCode);
      expect(form.languages).toEqual(['en']);
      expect(form.languageNotice?.es).toContain('solo está disponible en inglés');
    }
  });

  it('reports the total and the primary band as the headline', () => {
    expect(headlineOf(11, { total: 12, severity: 2, item9Positive: 1 })).toEqual({ score: 12, band: 2 });
    expect(headlineOf(14, { total: null, screenPositive: null })).toEqual({ score: null, band: null });
  });
});

describe('licensed wording', () => {
  function soapprWording(): LicensedWording {
    return {
      formCode: 13,
      source: 'Licensed copy, © rights holder',
      languages: ['en'],
      questions: soappR.questions.map((question) => ({
        id: question.id,
        text: { en: `Licensed text ${question.id}` },
        options: (question.options ?? []).map((option) => ({
          value: Number(option.value),
          label: { en: `Label ${option.value}` },
        })),
      })),
    };
  }

  it('renders SOAPP-R with the imported text and its source as the credit line', () => {
    const wording = licensedWordingSchema.parse(soapprWording());
    const result = applyLicensedWording(soappR, wording);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.form.questions[0]?.text.en).toBe('Licensed text q1');
    expect(result.form.questions[0]?.options?.[4]?.label.en).toBe('Label 4');
    expect(result.form.credit?.en).toBe('Licensed copy, © rights holder');
    expect(renderableFormSchema.safeParse(result.form).success).toBe(true);
  });

  it('refuses wording whose question ids differ from the structure', () => {
    const wording = soapprWording();
    wording.questions = wording.questions.slice(0, 23);
    const result = applyLicensedWording(soappR, wording);
    expect(result).toEqual({ ok: false, fields: { questions: 'questionIdInvalid' } });
  });

  it('refuses wording whose option codes differ from the structure', () => {
    const wording = soapprWording();
    wording.questions[2]?.options.push({ value: 5, label: { en: 'Extra' } });
    expect(applyLicensedWording(soappR, wording)).toEqual({ ok: false, fields: { 'questions.2.options': 'optionInvalid' } });
  });

  it('refuses Spanish when a text has no Spanish version, and wording for another form', () => {
    const wording = { ...soapprWording(), languages: ['en', 'es'] as LicensedWording['languages'], formCode: 2 };
    expect(applyLicensedWording(soappR, wording)).toEqual({
      ok: false,
      fields: { formCode: 'invalid', languages: 'spanishMissing' },
    });
  });
});
