/*
 * Form 7: PROMIS Global Health (Global-10) v1.2. PROMIS measures are © PROMIS Health Organization;
 * integration into proprietary software needs written permission, so the wording is not shipped: this
 * is the structure and scoring only, with neutral labels, and a System Manager imports the licensed text.
 * Options are listed in printed order (5 = best first for items 1–9; pain 0..10) with the v1.2 codes.
 * Scoring: scoring-reference.md section 4.7 (pain recode, raw sums, v1.2 raw → T tables) and the platform
 * rule of section 3: a summary is null if any of its 4 items is missing; Global01 (q1) and Global09r (q6)
 * are in neither summary and never block scoring.
 */
import { QuestionType, type FormQuestion } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import { codeIn, codesFrom, englishOnlyNotice, numberedOptions, sumOrNull } from './parts.js';

const ITEM_COUNT = 10;
const PAIN_ITEM = 10;
/** Global01 and Global09r: asked, but part of neither summary score. */
const UNSCORED_ITEMS = new Set([1, 6]);
/** GPH: Global03, Global06, recoded Global07r (pain), Global08r. */
const GPH_ITEMS = [3, 7, 10, 9];
/** GMH: Global02, Global04, Global05, Global10r. */
const GMH_ITEMS = [2, 4, 5, 8];

/** T-scores by raw sum 4..20 (index = raw − 4). */
const GPH_T = [16.2, 19.9, 23.5, 26.7, 29.6, 32.4, 34.9, 37.4, 39.8, 42.3, 44.9, 47.7, 50.8, 54.1, 57.7, 61.9, 67.7];
const GMH_T = [21.2, 25.1, 28.4, 31.3, 33.8, 36.3, 38.8, 41.1, 43.5, 45.8, 48.3, 50.8, 53.3, 56.0, 59.0, 62.5, 67.6];

const fivePointOptions = numberedOptions([5, 4, 3, 2, 1]);
const painOptions = numberedOptions(codesFrom(0, 10));

const questions: FormQuestion[] = Array.from({ length: ITEM_COUNT }, (_, index) => {
  const item = index + 1;
  const question: FormQuestion = {
    id: `q${item}`,
    type: QuestionType.LIKERT_SCALE,
    text: { en: `Item ${item}` },
    required: !UNSCORED_ITEMS.has(item),
    options: item === PAIN_ITEM ? painOptions : fivePointOptions,
  };
  if (UNSCORED_ITEMS.has(item)) question.unscored = true;
  return question;
});

/** Pain 0–10 → 5..1: 0→5; 1–3→4; 4–6→3; 7–9→2; 10→1. */
function recodePain(pain: number): number {
  if (pain === 0) return 5;
  if (pain <= 3) return 4;
  if (pain <= 6) return 3;
  if (pain <= 9) return 2;
  return 1;
}

function itemValue(answers: InstrumentAnswers, item: number): number | null {
  if (item !== PAIN_ITEM) return codeIn(answers, `q${item}`, 1, 5);
  const pain = codeIn(answers, `q${item}`, 0, 10);
  return pain === null ? null : recodePain(pain);
}

function summary(
  answers: InstrumentAnswers,
  items: readonly number[],
  table: readonly number[],
): [raw: number | null, t: number | null] {
  const raw = sumOrNull(items.map((item) => itemValue(answers, item)));
  return raw === null ? [null, null] : [raw, table[raw - 4] ?? null];
}

function scorePromisGlobal10(answers: InstrumentAnswers): ScoreResult {
  const [gphRaw, gphT] = summary(answers, GPH_ITEMS, GPH_T);
  const [gmhRaw, gmhT] = summary(answers, GMH_ITEMS, GMH_T);
  return { gphRaw, gphT, gmhRaw, gmhT };
}

export const promisGlobal10: InstrumentDefinition = {
  formCode: 7,
  slug: 'promisglobal10',
  name: { en: 'PROMIS Global Health (Global-10)' },
  version: 'PROMIS Global Health v1.2',
  wording: 'licensed',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: { en: 'PROMIS Global Health v1.2 © PROMIS Health Organization.' },
  sections: [],
  questions,
  higherCodeIsWorse: { q2: false, q3: false, q4: false, q5: false, q7: false, q8: false, q9: false, q10: true },
  scores: [
    {
      key: 'gphRaw',
      label: { en: 'Global physical health (raw)', es: 'Salud física global (bruta)' },
      min: 4,
      max: 20,
      decimals: 0,
      higherIsBetter: true,
    },
    {
      key: 'gphT',
      label: { en: 'Global physical health (T-score)', es: 'Salud física global (puntuación T)' },
      min: 16.2,
      max: 67.7,
      decimals: 1,
      higherIsBetter: true,
    },
    {
      key: 'gmhRaw',
      label: { en: 'Global mental health (raw)', es: 'Salud mental global (bruta)' },
      min: 4,
      max: 20,
      decimals: 0,
      higherIsBetter: true,
    },
    {
      key: 'gmhT',
      label: { en: 'Global mental health (T-score)', es: 'Salud mental global (puntuación T)' },
      min: 21.2,
      max: 67.6,
      decimals: 1,
      higherIsBetter: true,
    },
  ],
  // The spec's 67.6 is the GMH maximum; GPH tops out at 67.7 (reference sections 4.7 and 6).
  headline: { key: 'gphT', maximum: 67.7 },
  score: scorePromisGlobal10,
};
