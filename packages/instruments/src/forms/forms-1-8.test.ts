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
import publicVectors from '../vectors-public.json';

const allDefinitions = [sf36, odi, ndi, pdi, hoosJr, koosJr, promisGlobal10, vr12];

interface Vector {
  form: number;
  name: string;
  answers: InstrumentAnswers;
  expected: ScoreResult;
}

/** The JSON's inferred type lists every other vector's keys as optional; a vector's own are all present. */
function presentScores(expected: Record<string, number | null | undefined>): ScoreResult {
  return Object.fromEntries(Object.entries(expected).filter((entry): entry is [string, number | null] => entry[1] !== undefined));
}

/** Forms 1–8 of the public vectors (src/vectors-public.json, a copy of the reference vectors). */
const vectors: Vector[] = publicVectors
  .filter((vector) => vector.form <= 8)
  .map(({ form, name, answers, expected }) => ({ form, name, answers, expected: presentScores(expected) }));

const TOLERANCE = 0.01;

function expectScores(actual: ScoreResult, expected: ScoreResult): void {
  for (const [key, value] of Object.entries(expected)) {
    expect(actual, key).toHaveProperty(key);
    if (value === null) expect(actual[key], key).toBeNull();
    else expect(Math.abs((actual[key] ?? Number.NaN) - value), `${key}: ${actual[key]} vs ${value}`).toBeLessThan(TOLERANCE);
  }
}

function definitionOf(form: number): InstrumentDefinition {
  const definition = allDefinitions.find((candidate) => candidate.formCode === form);
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
