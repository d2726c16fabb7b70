import { describe, expect, it } from 'vitest';
import { formCodes, instruments, scoreForm, type FormCode, type InstrumentAnswers, type InstrumentDefinition } from './index.js';

/** mulberry32: a small seeded generator so a failure reproduces. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function codesOf(definition: InstrumentDefinition, questionId: string): number[] {
  const question = definition.questions.find((candidate) => candidate.id === questionId);
  return (question?.options ?? []).map((option) => Number(option.value)).sort((a, b) => a - b);
}

function randomAnswers(definition: InstrumentDefinition, random: () => number): InstrumentAnswers {
  const answers: InstrumentAnswers = {};
  for (const question of definition.questions) {
    const codes = codesOf(definition, question.id);
    if (codes.length > 0) answers[question.id] = codes[Math.floor(random() * codes.length)];
  }
  return answers;
}

/** Section 9 maximums, and the reference's values for the codes section 9 leaves out (decision 0017). */
const headlineMaximums: Record<FormCode, number> = {
  1: 100,
  2: 100,
  3: 100,
  4: 70,
  5: 100,
  6: 100,
  7: 67.7,
  8: 100,
  9: 26,
  10: 6,
  11: 27,
  12: 21,
  13: 96,
  14: 12,
  15: 60,
};

const RUNS = 300;

/**
 * Norm-based VR-12 scoring gives the emotional-role and mental-health items negative weights in PCS
 * (reference 4.8: RE2, RE3, MH3, MH4), so a worse answer there raises PCS by design; the property holds
 * for the other items only.
 */
const negativeHeadlineWeight: Partial<Record<FormCode, readonly string[]>> = { 8: ['q6', 'q7', 'q9', 'q11'] };

describe.each(formCodes.map((code) => [code, instruments[code]] as const))('form %i', (formCode, definition) => {
  it('random complete answers score every descriptor inside its range', () => {
    const random = seededRandom(1000 + formCode);
    for (let run = 0; run < RUNS; run += 1) {
      const answers = randomAnswers(definition, random);
      const scores = scoreForm(formCode, answers);
      for (const descriptor of definition.scores) {
        const value = scores[descriptor.key];
        expect(value, `${descriptor.key} for ${JSON.stringify(answers)}`).toBeTypeOf('number');
        expect(value).toBeGreaterThanOrEqual(descriptor.min - 1e-9);
        expect(value).toBeLessThanOrEqual(descriptor.max + 1e-9);
      }
    }
  });

  it('answering one scored item worse never improves the headline score', () => {
    const random = seededRandom(2000 + formCode);
    const headline = definition.scores.find((descriptor) => descriptor.key === definition.headline.key);
    expect(headline?.key).toBe(definition.headline.key);
    const exempt = negativeHeadlineWeight[formCode] ?? [];
    const scoredItems = Object.entries(definition.higherCodeIsWorse).filter(([itemId]) => !exempt.includes(itemId));
    expect(scoredItems.length).toBeGreaterThan(0);
    for (let run = 0; run < RUNS; run += 1) {
      const answers = randomAnswers(definition, random);
      const [itemId, higherIsWorse] = scoredItems[Math.floor(random() * scoredItems.length)] ?? ['', true];
      const codes = codesOf(definition, itemId);
      const position = codes.indexOf(answers[itemId] ?? Number.NaN);
      const worse = codes[higherIsWorse ? position + 1 : position - 1];
      if (worse === undefined) continue;
      const before = scoreForm(formCode, answers)[definition.headline.key] ?? Number.NaN;
      const after = scoreForm(formCode, { ...answers, [itemId]: worse })[definition.headline.key] ?? Number.NaN;
      const message = `${itemId} ${answers[itemId]}→${worse} in ${JSON.stringify(answers)}`;
      if (headline?.higherIsBetter) expect(after, message).toBeLessThanOrEqual(before + 1e-9);
      else expect(after, message).toBeGreaterThanOrEqual(before - 1e-9);
    }
  });

  it('numbers its questions q1..qN in printed order, extra inputs after them', () => {
    const ids = definition.questions.map((question) => question.id);
    const items = ids.filter((id) => id !== 'sex');
    expect(items).toEqual(items.map((_, index) => `q${index + 1}`));
    if (ids.includes('sex')) expect(ids.at(-1)).toBe('sex');
    expect(ids.includes('sex')).toBe(formCode === 9 || formCode === 14);
    for (const itemId of Object.keys(definition.higherCodeIsWorse)) expect(items).toContain(itemId);
  });

  it('uses numeric option codes only', () => {
    for (const question of definition.questions) {
      for (const option of question.options ?? []) expect(option.value, question.id).toBeTypeOf('number');
    }
  });

  it('has the headline maximum of specification section 9 (or the reference where the spec is silent)', () => {
    expect(definition.formCode).toBe(formCode);
    expect(definition.headline.maximum).toBe(headlineMaximums[formCode]);
    expect(definition.scores.map((descriptor) => descriptor.key)).toContain(definition.headline.key);
  });
});
