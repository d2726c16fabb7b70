/*
 * Form 3: Neck Disability Index (Vernon & Mior 1991). The wording is © Howard Vernon and is not shipped:
 * this is the structure and scoring only, with neutral labels, and a System Manager imports the licensed
 * text. Scoring: scoring-reference.md section 4.3 and the platform rules of section 3 (score when at least
 * 8 of 10 items are answered, each missing item taking the mean of the answered ones; bands on the
 * prorated raw score: <5, <15, <25, <35, ≥35).
 */
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  answeredSum,
  categoryScore,
  codesIn,
  englishOnlyNotice,
  neutralSections,
  proratedPercent,
} from './parts.js';

const ITEM_COUNT = 10;
const MIN_ANSWERED = 8;
/** Item 8 (driving) is often skipped by non-drivers; it is then prorated. */
const OPTIONAL_ITEM = 8;
/** Raw-score band limits (exclusive): none, mild, moderate, severe; at or above the last is complete. */
const RAW_BAND_LIMITS = [5, 15, 25, 35];
/** Each item's statements are coded 0 (no disability) to 5. */
const MAX_CODE = 5;

const questions = neutralSections(ITEM_COUNT, MAX_CODE, OPTIONAL_ITEM);

function scoreNdi(answers: InstrumentAnswers): ScoreResult {
  const { sum, answered } = answeredSum(codesIn(answers, ITEM_COUNT, 0, MAX_CODE));
  if (answered < MIN_ANSWERED) return { ndiPercent: null, ndiRaw: null, band: null };
  // Raw prorated to 10 items = sum × 10 / answered; bands compared in integers (raw < limit).
  const ndiRaw = (sum * ITEM_COUNT) / answered;
  const bandIndex = RAW_BAND_LIMITS.findIndex((limit) => sum * ITEM_COUNT < limit * answered);
  return {
    ndiPercent: proratedPercent(sum, answered, MAX_CODE),
    ndiRaw,
    band: bandIndex === -1 ? RAW_BAND_LIMITS.length : bandIndex,
  };
}

export const ndi: InstrumentDefinition = {
  formCode: 3,
  slug: 'ndi',
  name: { en: 'Neck Disability Index (NDI)' },
  version: 'NDI (Vernon & Mior 1991)',
  wording: 'licensed',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: { en: 'Neck Disability Index © Howard Vernon.' },
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(ITEM_COUNT),
  scores: [
    {
      key: 'ndiPercent',
      label: { en: 'Disability (%)', es: 'Discapacidad (%)' },
      min: 0,
      max: 100,
      decimals: 1,
      higherIsBetter: false,
    },
    { key: 'ndiRaw', label: { en: 'Raw score', es: 'Puntuación bruta' }, min: 0, max: 50, decimals: 1, higherIsBetter: false },
    categoryScore('band', { en: 'Disability level', es: 'Nivel de discapacidad' }, 4),
  ],
  headline: { key: 'ndiPercent', maximum: 100 },
  bands: [
    {
      key: 'band',
      labels: {
        0: { en: 'No disability', es: 'Sin discapacidad' },
        1: { en: 'Mild disability', es: 'Discapacidad leve' },
        2: { en: 'Moderate disability', es: 'Discapacidad moderada' },
        3: { en: 'Severe disability', es: 'Discapacidad grave' },
        4: { en: 'Complete disability', es: 'Discapacidad completa' },
      },
    },
  ],
  mcid: { points: 10, source: "Vernon H, author's explanatory note on the NDI (5 raw points = 10 percentage points)" },
  score: scoreNdi,
};
