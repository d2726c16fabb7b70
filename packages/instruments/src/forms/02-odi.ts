/*
 * Form 2: Oswestry Disability Index v2.1a. The wording is © Jeremy Fairbank (distributed by Mapi Research
 * Trust) and is not shipped: this is the structure and scoring only, with neutral labels, and a System
 * Manager imports the licensed text. Scoring: scoring-reference.md section 4.2 and the platform rules of
 * section 3 (score when at least 8 of 10 sections are answered; bands use "≤ upper bound").
 */
import { QuestionType, type FormQuestion, type QuestionOption } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';

const SECTION_COUNT = 10;
const MIN_ANSWERED = 8;
/** Section 8 (sex life) is often not applicable; skipping it is prorated, never counted as 0. */
const OPTIONAL_SECTION = 8;
/** Band upper bounds in percent: minimal, moderate, severe, crippled; above the last is band 4. */
const BAND_UPPER_BOUNDS = [20, 40, 60, 80];

const statementOptions: QuestionOption[] = [0, 1, 2, 3, 4, 5].map((value) => ({ value, label: { en: String(value) } }));

const questions: FormQuestion[] = Array.from({ length: SECTION_COUNT }, (_, index) => ({
  id: `q${index + 1}`,
  type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
  text: { en: `Section ${index + 1}` },
  required: index + 1 !== OPTIONAL_SECTION,
  options: statementOptions,
}));

function scoreOdi(answers: InstrumentAnswers): ScoreResult {
  let sum = 0;
  let answered = 0;
  for (let section = 1; section <= SECTION_COUNT; section += 1) {
    const value = answers[`q${section}`];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 5) continue;
    sum += value;
    answered += 1;
  }
  if (answered < MIN_ANSWERED) return { odiPercent: null, band: null };
  // percent = sum / (5 × answered) × 100 = 20 × sum / answered; bands compared in integers, so a
  // prorated 40.000…01 cannot slip into the next band.
  const odiPercent = (20 * sum) / answered;
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
  languageNotice: {
    en: 'This questionnaire is available in English only; no validated Spanish translation is offered.',
    es: 'Este cuestionario solo está disponible en inglés; no se ofrece una traducción validada al español.',
  },
  credit: { en: 'Oswestry Disability Index 2.1a © Jeremy Fairbank; distributed by Mapi Research Trust.' },
  sections: [],
  questions,
  higherCodeIsWorse: Object.fromEntries(questions.map((question) => [question.id, true])),
  scores: [
    {
      key: 'odiPercent',
      label: { en: 'Disability (%)', es: 'Discapacidad (%)' },
      min: 0,
      max: 100,
      decimals: 1,
      higherIsBetter: false,
    },
    {
      key: 'band',
      label: { en: 'Disability level', es: 'Nivel de discapacidad' },
      min: 0,
      max: 4,
      decimals: 0,
      higherIsBetter: false,
      categorical: true,
    },
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
