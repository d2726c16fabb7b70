/*
 * Form 2: Oswestry Disability Index v2.1a. The wording is © Jeremy Fairbank (distributed by Mapi Research
 * Trust) and is not shipped: this is the structure and scoring only, with neutral labels, and a System
 * Manager imports the licensed text. Scoring: scoring-reference.md section 4.2 and the platform rules of
 * section 3 (score when at least 8 of 10 sections are answered; bands use "≤ upper bound").
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

const SECTION_COUNT = 10;
const MIN_ANSWERED = 8;
/** Section 8 (sex life) is often not applicable; skipping it is prorated, never counted as 0. */
const OPTIONAL_SECTION = 8;
/** Band upper bounds in percent: minimal, moderate, severe, crippled; above the last is band 4. */
const BAND_UPPER_BOUNDS = [20, 40, 60, 80];
/** Each section's statements are coded 0 (no disability) to 5. */
const MAX_CODE = 5;

const questions = neutralSections(SECTION_COUNT, MAX_CODE, OPTIONAL_SECTION);

function scoreOdi(answers: InstrumentAnswers): ScoreResult {
  const { sum, answered } = answeredSum(codesIn(answers, SECTION_COUNT, 0, MAX_CODE));
  if (answered < MIN_ANSWERED) return { odiPercent: null, band: null };
  // Bands compared in integers (20 × sum against upper × answered), so a prorated 40.000…01 cannot slip
  // into the next band.
  const odiPercent = proratedPercent(sum, answered, MAX_CODE);
  const bandIndex = BAND_UPPER_BOUNDS.findIndex((upper) => 20 * sum <= upper * answered);
  return { odiPercent, band: bandIndex === -1 ? BAND_UPPER_BOUNDS.length : bandIndex };
}

export const odi: InstrumentDefinition = {
  formCode: 2,
  slug: 'odi',
  name: { en: 'Oswestry Disability Index (ODI)' },
  version: 'ODI 2.1a',
  wording: 'licensed',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: { en: 'Oswestry Disability Index 2.1a © Jeremy Fairbank; distributed by Mapi Research Trust.' },
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(SECTION_COUNT),
  scores: [
    {
      key: 'odiPercent',
      label: { en: 'Disability (%)', es: 'Discapacidad (%)' },
      min: 0,
      max: 100,
      decimals: 1,
      higherIsBetter: false,
    },
    categoryScore('band', { en: 'Disability level', es: 'Nivel de discapacidad' }, 4),
  ],
  headline: { key: 'odiPercent', maximum: 100 },
  bands: [
    {
      key: 'band',
      labels: {
        0: { en: 'Minimal disability', es: 'Discapacidad mínima' },
        1: { en: 'Moderate disability', es: 'Discapacidad moderada' },
        2: { en: 'Severe disability', es: 'Discapacidad grave' },
        3: { en: 'Crippled', es: 'Incapacitante' },
        4: { en: 'Bed-bound or exaggerating symptoms', es: 'Postrado en cama o síntomas exagerados' },
      },
    },
  ],
  mcid: { points: 10, source: 'Ostelo RW et al., Spine 2008;33:90–94 (10 points or 30 % improvement)' },
  score: scoreOdi,
};
