import { formContentSchema, type FormQuestion } from '@pathwell/contracts/forms';
import { formProblems } from '@pathwell/contracts/form-logic';
import { describe, expect, it } from 'vitest';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import { sf36 } from './01-sf36.js';
import { odi } from './02-odi.js';
import { ndi } from './03-ndi.js';
import { pdi } from './04-pdi.js';
import { hoosJr } from './05-hoosjr.js';
import { koosJr } from './06-koosjr.js';
import { promisGlobal10 } from './07-promis-global10.js';
import { vr12 } from './08-vr12.js';

const definitions: Record<number, InstrumentDefinition> = {
  1: sf36,
  2: odi,
  3: ndi,
  4: pdi,
  5: hoosJr,
  6: koosJr,
  7: promisGlobal10,
  8: vr12,
};
const allDefinitions = Object.values(definitions);

interface Vector {
  form: number;
  name: string;
  answers: InstrumentAnswers;
  expected: ScoreResult;
}

/** Forms 1–8 of ../shared/pro/vectors-public.json, unchanged. */
const vectors: Vector[] = [
  {
    form: 1,
    name: 'SF36 (RAND-36 1.0 scoring): worst health on every item',
    answers: {
      q1: 5,
      q2: 5,
      q3: 1,
      q4: 1,
      q5: 1,
      q6: 1,
      q7: 1,
      q8: 1,
      q9: 1,
      q10: 1,
      q11: 1,
      q12: 1,
      q13: 1,
      q14: 1,
      q15: 1,
      q16: 1,
      q17: 1,
      q18: 1,
      q19: 1,
      q20: 5,
      q21: 6,
      q22: 5,
      q23: 6,
      q24: 1,
      q25: 1,
      q26: 6,
      q27: 6,
      q28: 1,
      q29: 1,
      q30: 6,
      q31: 1,
      q32: 1,
      q33: 1,
      q34: 5,
      q35: 1,
      q36: 5,
    },
    expected: {
      physicalFunctioning: 0.0,
      rolePhysical: 0.0,
      roleEmotional: 0.0,
      energyFatigue: 0.0,
      emotionalWellBeing: 0.0,
      socialFunctioning: 0.0,
      pain: 0.0,
      generalHealth: 0.0,
      pcsUnweighted: 0.0,
      mcsUnweighted: 0.0,
      overallMean8: 0.0,
    },
  },
  {
    form: 1,
    name: 'SF36 (RAND-36 1.0 scoring): best health on every item',
    answers: {
      q1: 1,
      q2: 1,
      q3: 3,
      q4: 3,
      q5: 3,
      q6: 3,
      q7: 3,
      q8: 3,
      q9: 3,
      q10: 3,
      q11: 3,
      q12: 3,
      q13: 2,
      q14: 2,
      q15: 2,
      q16: 2,
      q17: 2,
      q18: 2,
      q19: 2,
      q20: 1,
      q21: 1,
      q22: 1,
      q23: 1,
      q24: 6,
      q25: 6,
      q26: 1,
      q27: 1,
      q28: 6,
      q29: 6,
      q30: 1,
      q31: 6,
      q32: 5,
      q33: 5,
      q34: 1,
      q35: 5,
      q36: 1,
    },
    expected: {
      physicalFunctioning: 100.0,
      rolePhysical: 100.0,
      roleEmotional: 100.0,
      energyFatigue: 100.0,
      emotionalWellBeing: 100.0,
      socialFunctioning: 100.0,
      pain: 100.0,
      generalHealth: 100.0,
      pcsUnweighted: 100.0,
      mcsUnweighted: 100.0,
      overallMean8: 100.0,
    },
  },
  {
    form: 1,
    name: 'SF36 (RAND-36 1.0 scoring): every item answered with code 1 (direction check)',
    answers: {
      q1: 1,
      q2: 1,
      q3: 1,
      q4: 1,
      q5: 1,
      q6: 1,
      q7: 1,
      q8: 1,
      q9: 1,
      q10: 1,
      q11: 1,
      q12: 1,
      q13: 1,
      q14: 1,
      q15: 1,
      q16: 1,
      q17: 1,
      q18: 1,
      q19: 1,
      q20: 1,
      q21: 1,
      q22: 1,
      q23: 1,
      q24: 1,
      q25: 1,
      q26: 1,
      q27: 1,
      q28: 1,
      q29: 1,
      q30: 1,
      q31: 1,
      q32: 1,
      q33: 1,
      q34: 1,
      q35: 1,
      q36: 1,
    },
    expected: {
      physicalFunctioning: 0.0,
      rolePhysical: 0.0,
      roleEmotional: 0.0,
      energyFatigue: 50.0,
      emotionalWellBeing: 40.0,
      socialFunctioning: 50.0,
      pain: 100.0,
      generalHealth: 60.0,
      pcsUnweighted: 40.0,
      mcsUnweighted: 35.0,
      overallMean8: 37.5,
    },
  },
  {
    form: 1,
    name: 'SF36 (RAND-36 1.0 scoring): mid-range patient',
    answers: {
      q1: 3,
      q2: 3,
      q3: 1,
      q4: 2,
      q5: 2,
      q6: 2,
      q7: 2,
      q8: 3,
      q9: 1,
      q10: 2,
      q11: 3,
      q12: 3,
      q13: 1,
      q14: 1,
      q15: 2,
      q16: 1,
      q17: 2,
      q18: 2,
      q19: 1,
      q20: 2,
      q21: 4,
      q22: 3,
      q23: 4,
      q24: 5,
      q25: 6,
      q26: 3,
      q27: 4,
      q28: 5,
      q29: 3,
      q30: 2,
      q31: 3,
      q32: 3,
      q33: 4,
      q34: 3,
      q35: 3,
      q36: 4,
    },
    expected: {
      physicalFunctioning: 55.0,
      rolePhysical: 25.0,
      roleEmotional: 66.6667,
      energyFatigue: 40.0,
      emotionalWellBeing: 80.0,
      socialFunctioning: 62.5,
      pain: 45.0,
      generalHealth: 50.0,
      pcsUnweighted: 43.75,
      mcsUnweighted: 62.2917,
      overallMean8: 53.0208,
    },
  },
  {
    form: 1,
    name: 'SF36 (RAND-36 1.0 scoring): mid-range patient with 8 items missing (each scale keeps >=50% of items)',
    answers: {
      q1: 3,
      q3: 1,
      q4: 2,
      q6: 2,
      q7: 2,
      q8: 3,
      q10: 2,
      q11: 3,
      q12: 3,
      q13: 1,
      q15: 2,
      q16: 1,
      q17: 2,
      q19: 1,
      q20: 2,
      q22: 3,
      q23: 4,
      q24: 5,
      q25: 6,
      q27: 4,
      q28: 5,
      q29: 3,
      q30: 2,
      q31: 3,
      q32: 3,
      q34: 3,
      q35: 3,
      q36: 4,
    },
    expected: {
      physicalFunctioning: 62.5,
      rolePhysical: 33.3333,
      roleEmotional: 50.0,
      energyFatigue: 40.0,
      emotionalWellBeing: 85.0,
      socialFunctioning: 62.5,
      pain: 50.0,
      generalHealth: 43.75,
      pcsUnweighted: 47.3958,
      mcsUnweighted: 59.375,
      overallMean8: 53.3854,
    },
  },
  {
    form: 2,
    name: 'ODI v2.1a: all sections 0',
    answers: { q1: 0, q2: 0, q3: 0, q4: 0, q5: 0, q6: 0, q7: 0, q8: 0, q9: 0, q10: 0 },
    expected: { odiPercent: 0.0, band: 0 },
  },
  {
    form: 2,
    name: 'ODI v2.1a: all sections 5',
    answers: { q1: 5, q2: 5, q3: 5, q4: 5, q5: 5, q6: 5, q7: 5, q8: 5, q9: 5, q10: 5 },
    expected: { odiPercent: 100.0, band: 4 },
  },
  {
    form: 2,
    name: 'ODI v2.1a: mid-range, sum 20 of 50 (upper edge of moderate)',
    answers: { q1: 2, q2: 1, q3: 3, q4: 2, q5: 2, q6: 3, q7: 1, q8: 2, q9: 2, q10: 2 },
    expected: { odiPercent: 40.0, band: 1 },
  },
  {
    form: 2,
    name: 'ODI v2.1a: sum 27 of 50',
    answers: { q1: 3, q2: 2, q3: 4, q4: 2, q5: 3, q6: 3, q7: 2, q8: 3, q9: 2, q10: 3 },
    expected: { odiPercent: 54.0, band: 2 },
  },
  {
    form: 2,
    name: 'ODI v2.1a: sex-life section skipped, sum 16 of 45',
    answers: { q1: 2, q2: 1, q3: 3, q4: 2, q5: 2, q6: 2, q7: 1, q9: 1, q10: 2 },
    expected: { odiPercent: 35.5556, band: 1 },
  },
  {
    form: 2,
    name: 'ODI v2.1a: three sections missing',
    answers: { q1: 3, q3: 4, q5: 3, q6: 3, q8: 2, q9: 2, q10: 3 },
    expected: { odiPercent: null, band: null },
  },
  {
    form: 3,
    name: 'NDI: all items 0',
    answers: { q1: 0, q2: 0, q3: 0, q4: 0, q5: 0, q6: 0, q7: 0, q8: 0, q9: 0, q10: 0 },
    expected: { ndiPercent: 0.0, ndiRaw: 0.0, band: 0 },
  },
  {
    form: 3,
    name: 'NDI: all items 5',
    answers: { q1: 5, q2: 5, q3: 5, q4: 5, q5: 5, q6: 5, q7: 5, q8: 5, q9: 5, q10: 5 },
    expected: { ndiPercent: 100.0, ndiRaw: 50.0, band: 4 },
  },
  {
    form: 3,
    name: 'NDI: raw 12 (mild)',
    answers: { q1: 2, q2: 1, q3: 2, q4: 1, q5: 1, q6: 1, q7: 1, q8: 1, q9: 1, q10: 1 },
    expected: { ndiPercent: 24.0, ndiRaw: 12.0, band: 1 },
  },
  {
    form: 3,
    name: 'NDI: raw 20 (moderate)',
    answers: { q1: 3, q2: 1, q3: 2, q4: 2, q5: 3, q6: 2, q7: 2, q8: 1, q9: 2, q10: 2 },
    expected: { ndiPercent: 40.0, ndiRaw: 20.0, band: 2 },
  },
  {
    form: 3,
    name: 'NDI: driving item skipped, 18 over 9 items',
    answers: { q1: 3, q2: 1, q3: 2, q4: 2, q5: 3, q6: 2, q7: 2, q9: 1, q10: 2 },
    expected: { ndiPercent: 40.0, ndiRaw: 20.0, band: 2 },
  },
  {
    form: 3,
    name: 'NDI: three items missing',
    answers: { q1: 3, q3: 2, q5: 3, q6: 2, q8: 1, q9: 2, q10: 2 },
    expected: { ndiPercent: null, ndiRaw: null, band: null },
  },
  { form: 4, name: 'PDI: all 0', answers: { q1: 0, q2: 0, q3: 0, q4: 0, q5: 0, q6: 0, q7: 0 }, expected: { pdiTotal: 0 } },
  {
    form: 4,
    name: 'PDI: all 10',
    answers: { q1: 10, q2: 10, q3: 10, q4: 10, q5: 10, q6: 10, q7: 10 },
    expected: { pdiTotal: 70 },
  },
  { form: 4, name: 'PDI: mid-range', answers: { q1: 5, q2: 3, q3: 4, q4: 6, q5: 2, q6: 1, q7: 0 }, expected: { pdiTotal: 21 } },
  {
    form: 4,
    name: 'PDI: one category missing',
    answers: { q1: 5, q2: 3, q3: 4, q5: 2, q6: 1, q7: 0 },
    expected: { pdiTotal: null },
  },
  {
    form: 5,
    name: 'HOOS JR: all None (0)',
    answers: { q1: 0, q2: 0, q3: 0, q4: 0, q5: 0, q6: 0 },
    expected: { rawSum: 0, intervalScore: 100.0 },
  },
  {
    form: 5,
    name: 'HOOS JR: all Extreme (4)',
    answers: { q1: 4, q2: 4, q3: 4, q4: 4, q5: 4, q6: 4 },
    expected: { rawSum: 24, intervalScore: 0.0 },
  },
  {
    form: 5,
    name: 'HOOS JR: all Moderate (2)',
    answers: { q1: 2, q2: 2, q3: 2, q4: 2, q5: 2, q6: 2 },
    expected: { rawSum: 12, intervalScore: 52.965 },
  },
  {
    form: 5,
    name: 'HOOS JR: mixed, raw 7',
    answers: { q1: 1, q2: 2, q3: 1, q4: 2, q5: 0, q6: 1 },
    expected: { rawSum: 7, intervalScore: 67.516 },
  },
  {
    form: 5,
    name: 'HOOS JR: one item missing',
    answers: { q1: 1, q2: 2, q4: 2, q5: 0, q6: 1 },
    expected: { rawSum: null, intervalScore: null },
  },
  {
    form: 6,
    name: 'KOOS JR: all None (0)',
    answers: { q1: 0, q2: 0, q3: 0, q4: 0, q5: 0, q6: 0, q7: 0 },
    expected: { rawSum: 0, intervalScore: 100.0 },
  },
  {
    form: 6,
    name: 'KOOS JR: all Extreme (4)',
    answers: { q1: 4, q2: 4, q3: 4, q4: 4, q5: 4, q6: 4, q7: 4 },
    expected: { rawSum: 28, intervalScore: 0.0 },
  },
  {
    form: 6,
    name: 'KOOS JR: all Moderate (2)',
    answers: { q1: 2, q2: 2, q3: 2, q4: 2, q5: 2, q6: 2, q7: 2 },
    expected: { rawSum: 14, intervalScore: 52.465 },
  },
  {
    form: 6,
    name: 'KOOS JR: mixed, raw 11',
    answers: { q1: 2, q2: 1, q3: 1, q4: 2, q5: 1, q6: 2, q7: 2 },
    expected: { rawSum: 11, intervalScore: 59.381 },
  },
  {
    form: 6,
    name: 'KOOS JR: one item missing',
    answers: { q1: 2, q2: 1, q3: 1, q5: 1, q6: 2, q7: 2 },
    expected: { rawSum: null, intervalScore: null },
  },
  {
    form: 7,
    name: 'PROMIS Global-10 v1.2: worst answer everywhere, pain 10',
    answers: { q1: 1, q2: 1, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1, q8: 1, q9: 1, q10: 10 },
    expected: { gphRaw: 4, gphT: 16.2, gmhRaw: 4, gmhT: 21.2 },
  },
  {
    form: 7,
    name: 'PROMIS Global-10 v1.2: best answer everywhere, pain 0',
    answers: { q1: 5, q2: 5, q3: 5, q4: 5, q5: 5, q6: 5, q7: 5, q8: 5, q9: 5, q10: 0 },
    expected: { gphRaw: 20, gphT: 67.7, gmhRaw: 20, gmhT: 67.6 },
  },
  {
    form: 7,
    name: 'PROMIS Global-10 v1.2: all middle (3), pain 5',
    answers: { q1: 3, q2: 3, q3: 3, q4: 3, q5: 3, q6: 3, q7: 3, q8: 3, q9: 3, q10: 5 },
    expected: { gphRaw: 12, gphT: 39.8, gmhRaw: 12, gmhT: 43.5 },
  },
  {
    form: 7,
    name: 'PROMIS Global-10 v1.2: mixed, pain 7',
    answers: { q1: 4, q2: 4, q3: 3, q4: 4, q5: 3, q6: 3, q7: 4, q8: 2, q9: 3, q10: 7 },
    expected: { gphRaw: 12, gphT: 39.8, gmhRaw: 13, gmhT: 45.8 },
  },
  {
    form: 7,
    name: 'PROMIS Global-10 v1.2: Global01 and Global09r missing (not in either summary)',
    answers: { q2: 4, q3: 3, q4: 4, q5: 3, q7: 4, q8: 2, q9: 3, q10: 7 },
    expected: { gphRaw: 12, gphT: 39.8, gmhRaw: 13, gmhT: 45.8 },
  },
  {
    form: 7,
    name: 'PROMIS Global-10 v1.2: Global05 missing',
    answers: { q1: 3, q2: 3, q3: 2, q4: 3, q6: 3, q7: 3, q8: 3, q9: 2, q10: 4 },
    expected: { gphRaw: 10, gphT: 34.9, gmhRaw: null, gmhT: null },
  },
  {
    form: 8,
    name: 'VR-12 (mail, 1990 norms): best answer everywhere',
    answers: { q1: 1, q2: 3, q3: 3, q4: 1, q5: 1, q6: 1, q7: 1, q8: 1, q9: 1, q10: 1, q11: 6, q12: 5 },
    expected: { pcs: 55.7385, mcs: 62.8778 },
  },
  {
    form: 8,
    name: 'VR-12 (mail, 1990 norms): worst answer everywhere',
    answers: { q1: 5, q2: 1, q3: 1, q4: 5, q5: 5, q6: 5, q7: 5, q8: 5, q9: 6, q10: 6, q11: 1, q12: 1 },
    expected: { pcs: 21.0469, mcs: 12.662 },
  },
  {
    form: 8,
    name: 'VR-12 (mail, 1990 norms): middle answers',
    answers: { q1: 3, q2: 2, q3: 2, q4: 3, q5: 3, q6: 3, q7: 3, q8: 3, q9: 3, q10: 4, q11: 4, q12: 3 },
    expected: { pcs: 37.9178, mcs: 39.6544 },
  },
  {
    form: 8,
    name: 'VR-12 (mail, 1990 norms): every item code 1 (direction check)',
    answers: { q1: 1, q2: 1, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1, q8: 1, q9: 1, q10: 1, q11: 1, q12: 1 },
    expected: { pcs: 46.6238, mcs: 43.7902 },
  },
];

const TOLERANCE = 0.01;

function expectScores(actual: ScoreResult, expected: ScoreResult): void {
  for (const [key, value] of Object.entries(expected)) {
    expect(actual, key).toHaveProperty(key);
    if (value === null) expect(actual[key], key).toBeNull();
    else expect(Math.abs((actual[key] ?? Number.NaN) - value), `${key}: ${actual[key]} vs ${value}`).toBeLessThan(TOLERANCE);
  }
}

function definitionOf(form: number): InstrumentDefinition {
  const definition = definitions[form];
  if (!definition) throw new Error(`no definition for form ${form}`);
  return definition;
}

/** Every scored item answered with the same position of its option list (0 = first printed option). */
function answerAll(definition: InstrumentDefinition, pick: (question: FormQuestion) => number): InstrumentAnswers {
  const answers: InstrumentAnswers = {};
  for (const question of definition.questions) answers[question.id] = pick(question);
  return answers;
}

function codes(question: FormQuestion): number[] {
  return (question.options ?? []).map((option) => Number(option.value));
}

/** Best (or worst) code of an item, by its direction. */
function extremeCode(definition: InstrumentDefinition, question: FormQuestion, best: boolean): number {
  const values = codes(question);
  const worseHigh = definition.higherCodeIsWorse[question.id] ?? false;
  return best === worseHigh ? Math.min(...values) : Math.max(...values);
}

function without(answers: InstrumentAnswers, ...ids: string[]): InstrumentAnswers {
  const copy = { ...answers };
  for (const id of ids) delete copy[id];
  return copy;
}

/** Items q1..q{answered} filled with 5s then the remainder, adding up to `sum`. */
function answersSumming(sum: number, answered: number): InstrumentAnswers {
  const answers: InstrumentAnswers = {};
  let left = sum;
  for (let item = 1; item <= answered; item += 1) {
    const value = Math.min(5, left);
    answers[`q${item}`] = value;
    left -= value;
  }
  if (left !== 0) throw new Error(`${sum} does not fit in ${answered} items`);
  return answers;
}

/** Small deterministic generator so the property checks are reproducible. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('forms 1–8: public vectors', () => {
  it.each(vectors)('form $form: $name', ({ form, answers, expected }) => {
    expectScores(definitionOf(form).score(answers), expected);
  });

  it('covers every form 1–8', () => {
    expect(new Set(vectors.map((vector) => vector.form))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8]));
  });
});

describe('forms 1–8: definitions', () => {
  it.each(allDefinitions)('$slug has items q1..qN in order, valid for the form contract', (definition) => {
    definition.questions.forEach((question, index) => expect(question.id).toBe(`q${index + 1}`));
    const content = formContentSchema.parse({
      title: definition.name,
      languages: definition.languages,
      sections: definition.sections,
      questions: definition.questions,
    });
    expect(content.questions).toHaveLength(definition.questions.length);
    for (const question of definition.questions) {
      expect([2, 3]).toContain(question.type);
      const values = codes(question);
      expect(new Set(values).size, question.id).toBe(values.length);
      if (question.sectionId) expect(definition.sections.map((section) => section.id)).toContain(question.sectionId);
    }
  });

  it.each(allDefinitions)('$slug gives a direction for exactly the scored items', (definition) => {
    const scored = definition.questions.filter((question) => !question.unscored).map((question) => question.id);
    expect(Object.keys(definition.higherCodeIsWorse).sort()).toEqual([...scored].sort());
  });

  it.each(allDefinitions)('$slug returns every declared score key, null when nothing is answered', (definition) => {
    const empty = definition.score({});
    for (const descriptor of definition.scores) expect(empty[descriptor.key], descriptor.key).toBeNull();
    expect(definition.scores.map((descriptor) => descriptor.key)).toContain(definition.headline.key);
    for (const band of definition.bands ?? []) expect(definition.scores.map((descriptor) => descriptor.key)).toContain(band.key);
  });

  it.each(allDefinitions)('$slug is English only and tells a Spanish-speaking patient so', (definition) => {
    expect(definition.languages).toEqual(['en']);
    expect(definition.languageNotice?.es).toMatch(/solo está disponible en inglés/);
  });

  it.each(allDefinitions)('$slug scores best and worst answers at the ends of its declared ranges', (definition) => {
    for (const best of [true, false]) {
      const result = definition.score(answerAll(definition, (question) => extremeCode(definition, question, best)));
      for (const descriptor of definition.scores) {
        const value = result[descriptor.key];
        expect(value, descriptor.key).not.toBeNull();
        expect(value, descriptor.key).toBeGreaterThanOrEqual(descriptor.min);
        expect(value, descriptor.key).toBeLessThanOrEqual(descriptor.max);
      }
    }
  });

  it('requires every scored item except those the missing-data rules allow to skip', () => {
    const required = (definition: InstrumentDefinition) =>
      definition.questions.filter((question) => !question.required).map((question) => question.id);
    expect(required(sf36)).toEqual(['q2']);
    expect(required(odi)).toEqual(['q8']);
    expect(required(ndi)).toEqual(['q8']);
    expect(required(pdi)).toEqual([]);
    expect(required(hoosJr)).toEqual([]);
    expect(required(koosJr)).toEqual([]);
    expect(required(promisGlobal10)).toEqual(['q1', 'q6']);
    expect(required(vr12)).toEqual(['q13', 'q14']);
    expect(Object.keys(formProblems(odi, {}))).toHaveLength(9);
  });

  it('ships neutral labels only for the licensed forms', () => {
    for (const definition of [odi, ndi, promisGlobal10]) {
      expect(definition.wording).toBe('licensed');
      for (const question of definition.questions) {
        expect(question.text.en).toMatch(/^(Section|Item) \d+$/);
        for (const option of question.options ?? []) expect(option.label.en).toBe(String(option.value));
      }
    }
    for (const definition of [sf36, pdi, hoosJr, koosJr, vr12]) expect(definition.wording).toBe('shipped');
  });

  it('never calls RAND-36 "SF-36" alone in patient-facing text and carries the RAND credit line', () => {
    expect(sf36.name.en).toBe('RAND-36 (SF-36 v1 items)');
    const texts = [
      sf36.credit?.en ?? '',
      ...sf36.sections.flatMap((section) => [section.title.en, section.intro?.en ?? '']),
      ...sf36.questions.flatMap((question) => [question.text.en, ...(question.options ?? []).map((option) => option.label.en)]),
    ];
    for (const text of texts) expect(text).not.toMatch(/SF-?36/);
    expect(sf36.credit?.en).toMatch(/developed at RAND as part of the Medical Outcomes Study/);
  });

  it('declares the headline maxima of the specification (PROMIS capped at the GPH maximum 67.7)', () => {
    expect(allDefinitions.map((definition) => [definition.headline.key, definition.headline.maximum])).toEqual([
      ['overallMean8', 100],
      ['odiPercent', 100],
      ['ndiPercent', 100],
      ['pdiTotal', 70],
      ['intervalScore', 100],
      ['intervalScore', 100],
      ['gphT', 67.7],
      ['pcs', 100],
    ]);
    expect(odi.mcid?.points).toBe(10);
    expect(ndi.mcid?.points).toBe(10);
    expect(pdi.mcid).toBeUndefined();
  });
});

describe('answering one item worse never improves the headline', () => {
  // VR-12 is left out on purpose: its PCS weights on RE2, RE3, MH3 and MH4 are negative (reference 4.8).
  const monotone = [sf36, odi, ndi, pdi, hoosJr, koosJr, promisGlobal10];
  it.each(monotone)('$slug', (definition) => {
    const next = random(definition.formCode);
    const headline = definition.scores.find((descriptor) => descriptor.key === definition.headline.key);
    for (let round = 0; round < 200; round += 1) {
      const answers = answerAll(definition, (question) => {
        const values = codes(question);
        return values[Math.floor(next() * values.length)] ?? 0;
      });
      const before = definition.score(answers)[definition.headline.key] ?? Number.NaN;
      for (const [id, worseHigh] of Object.entries(definition.higherCodeIsWorse)) {
        const question = definition.questions.find((candidate) => candidate.id === id);
        const current = answers[id] ?? 0;
        const worse = (question ? codes(question) : []).filter((value) => (worseHigh ? value > current : value < current));
        if (worse.length === 0) continue;
        const after =
          definition.score({ ...answers, [id]: worseHigh ? Math.min(...worse) : Math.max(...worse) })[definition.headline.key] ??
          Number.NaN;
        if (headline?.higherIsBetter) expect(after, `${id}`).toBeLessThanOrEqual(before);
        else expect(after, `${id}`).toBeGreaterThanOrEqual(before);
      }
    }
  });
});

describe('RAND-36 missing items', () => {
  const mid = vectors.find((vector) => vector.name.endsWith('mid-range patient'))?.answers ?? {};

  it('ignores item 2 (health transition) in every score', () => {
    expect(sf36.score({ ...mid, q2: 1 })).toEqual(sf36.score({ ...mid, q2: 5 }));
    expect(sf36.score(without(mid, 'q2'))).toEqual(sf36.score(mid));
  });

  it('averages the answered items of a scale', () => {
    const result = sf36.score(without(mid, 'q21'));
    expect(result.pain).toBe(50);
  });

  it('leaves a scale, its composite and the overall mean empty when all its items are missing', () => {
    const result = sf36.score(without(mid, 'q21', 'q22'));
    expect(result.pain).toBeNull();
    expect(result.pcsUnweighted).toBeNull();
    expect(result.overallMean8).toBeNull();
    expect(result.mcsUnweighted).toBeCloseTo(62.2917, 3);
  });

  it('treats a code outside the item options as missing', () => {
    expect(sf36.score({ ...mid, q21: 7 }).pain).toBe(50);
  });
});

describe('ODI proration and bands', () => {
  const allTwos = answerAll(odi, () => 2);

  it('scores with up to two sections missing and not with three', () => {
    expect(odi.score(without(allTwos, 'q8', 'q10')).odiPercent).toBe(40);
    expect(odi.score(without(allTwos, 'q8', 'q9', 'q10')).odiPercent).toBeNull();
  });

  it('treats an invalid code as a missing section', () => {
    expect(odi.score({ ...allTwos, q1: 6, q2: null }).odiPercent).toBe(40);
    expect(odi.score({ ...allTwos, q1: 6, q2: null, q3: 2.5 }).band).toBeNull();
  });

  it.each([
    [10, 10, 20, 0],
    [11, 10, 22, 1],
    [20, 10, 40, 1],
    [18, 9, 40, 1],
    [19, 9, 42.2222, 2],
    [30, 10, 60, 2],
    [31, 10, 62, 3],
    [40, 10, 80, 3],
    [36, 9, 80, 3],
    [41, 10, 82, 4],
  ])('sum %i over %i sections is %f %% in band %i', (sum, answered, percent, band) => {
    const answers = answersSumming(sum, answered);
    const result = odi.score(answers);
    expect(result.odiPercent).toBeCloseTo(percent, 3);
    expect(result.band).toBe(band);
  });
});

describe('NDI proration and bands', () => {
  it.each([
    [4, 10, 4, 0],
    [5, 10, 5, 1],
    [14, 10, 14, 1],
    [15, 10, 15, 2],
    [24, 10, 24, 2],
    [25, 10, 25, 3],
    [34, 10, 34, 3],
    [35, 10, 35, 4],
    [4, 9, 4.4444, 0],
    [13, 9, 14.4444, 1],
    [14, 9, 15.5556, 2],
    [27, 9, 30, 3],
    [28, 8, 35, 4],
  ])('sum %i over %i items is raw %f in band %i', (sum, answered, raw, band) => {
    const result = ndi.score(answersSumming(sum, answered));
    expect(result.ndiRaw).toBeCloseTo(raw, 3);
    expect(result.ndiPercent).toBeCloseTo(raw * 2, 3);
    expect(result.band).toBe(band);
  });

  it('does not score with three items missing', () => {
    expect(ndi.score(answersSumming(7, 7))).toEqual({ ndiPercent: null, ndiRaw: null, band: null });
  });
});

describe('PDI, HOOS JR and KOOS JR need every item', () => {
  it('PDI refuses a missing or out-of-range rating', () => {
    const all = answerAll(pdi, () => 3);
    expect(pdi.score(all).pdiTotal).toBe(21);
    expect(pdi.score(without(all, 'q5')).pdiTotal).toBeNull();
    expect(pdi.score({ ...all, q1: 11 }).pdiTotal).toBeNull();
  });

  it.each([
    [hoosJr, 24, [100, 92.34, 85.257, 80.55, 76.776, 73.472, 70.426, 67.516, 64.664, 61.815, 58.93, 55.985, 52.965]],
    [koosJr, 28, [100, 91.975, 84.6, 79.914, 76.332, 73.342, 70.704, 68.284, 65.994, 63.776, 61.583, 59.381, 57.14]],
  ])('%s converts every raw sum with the reference table', (definition, maxRaw, firstValues) => {
    let previous = Number.POSITIVE_INFINITY;
    const itemCount = definition.questions.length;
    for (let raw = 0; raw <= maxRaw; raw += 1) {
      const answers: InstrumentAnswers = {};
      for (let item = 1; item <= itemCount; item += 1) answers[`q${item}`] = Math.min(4, Math.max(0, raw - (item - 1) * 4));
      const result = definition.score(answers);
      expect(result.rawSum).toBe(raw);
      const interval = result.intervalScore ?? Number.NaN;
      if (raw < firstValues.length) expect(interval).toBe(firstValues[raw]);
      expect(interval).toBeLessThan(previous);
      previous = interval;
    }
    expect(previous).toBe(0);
    expect(definition.score({ q1: 0 })).toEqual({ rawSum: null, intervalScore: null });
  });
});

describe('PROMIS Global-10 summaries', () => {
  const middle: InstrumentAnswers = { q1: 3, q2: 3, q3: 3, q4: 3, q5: 3, q6: 3, q7: 3, q8: 3, q9: 3, q10: 5 };

  it.each([
    [0, 14],
    [1, 13],
    [3, 13],
    [4, 12],
    [6, 12],
    [7, 11],
    [9, 11],
    [10, 10],
  ])('pain %i gives a GPH raw score of %i', (pain, raw) => {
    expect(promisGlobal10.score({ ...middle, q10: pain }).gphRaw).toBe(raw);
  });

  it('scores one summary when an item of the other is missing', () => {
    expect(promisGlobal10.score(without(middle, 'q10'))).toEqual({ gphRaw: null, gphT: null, gmhRaw: 12, gmhT: 43.5 });
    expect(promisGlobal10.score(without(middle, 'q8'))).toEqual({ gphRaw: 12, gphT: 39.8, gmhRaw: null, gmhT: null });
  });

  it('never lets Global01 or Global09r change or block a score', () => {
    expect(promisGlobal10.score({ ...middle, q1: 5, q6: 1 })).toEqual(promisGlobal10.score(middle));
    expect(promisGlobal10.score(without(middle, 'q1', 'q6'))).toEqual(promisGlobal10.score(middle));
  });

  it('treats pain 11 or an item code 0 as missing', () => {
    expect(promisGlobal10.score({ ...middle, q10: 11 }).gphT).toBeNull();
    expect(promisGlobal10.score({ ...middle, q2: 0 }).gmhT).toBeNull();
  });
});

describe('VR-12 summaries', () => {
  const best = answerAll(vr12, (question) => extremeCode(vr12, question, true));

  it('matches the reference ranges with the full-precision weights', () => {
    const worst = answerAll(vr12, (question) => extremeCode(vr12, question, false));
    expectScores(vr12.score(best), { pcs: 55.7385, mcs: 62.8778 });
    expectScores(vr12.score(worst), { pcs: 21.0469, mcs: 12.662 });
    // PCS is linear in the items, so its extremes take each item's PCS-best (or PCS-worst) code.
    const pcsExtreme = (highest: boolean) =>
      answerAll(vr12, (question) => {
        const values = codes(question);
        const pcs = values.map((value) => vr12.score({ ...best, [question.id]: value }).pcs ?? Number.NaN);
        return values[pcs.indexOf(highest ? Math.max(...pcs) : Math.min(...pcs))] ?? 1;
      });
    expectScores(vr12.score(pcsExtreme(true)), { pcs: 74.3027 });
    expectScores(vr12.score(pcsExtreme(false)), { pcs: 2.4827 });
  });

  it('uses the full-precision constants, not the 6-decimal table', () => {
    const result = vr12.score(best);
    expect(result.pcs).toBeCloseTo(55.73851724, 6);
    expect(result.mcs).toBeCloseTo(62.87780868, 6);
  });

  it('ignores the two unscored change items', () => {
    expect(vr12.score({ ...best, q13: 5, q14: 1 })).toEqual(vr12.score(best));
  });

  it('does not score when any of the 12 scored items is missing', () => {
    for (let item = 1; item <= 12; item += 1) expect(vr12.score(without(best, `q${item}`))).toEqual({ pcs: null, mcs: null });
  });
});
