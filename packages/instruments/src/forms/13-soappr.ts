import { QuestionType } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  categoryScore,
  completeCodes,
  englishOnlyNotice,
  items,
  nullScores,
  options,
  sumOf,
  totalScore,
} from './parts.js';

/**
 * SOAPP-R text is licensed (reference 4.13): structure and scoring only, neutral labels until a System
 * Manager imports the licensed wording. Codes 0 Never … 4 Very often.
 */
const ITEM_COUNT = 24;
const questions = items(
  QuestionType.LIKERT_SCALE,
  Array.from({ length: ITEM_COUNT }, (_, index) => ({ en: `Item ${index + 1}`, es: `Ítem ${index + 1}` })),
  options([0, 1, 2, 3, 4].map((code) => ({ en: `Option ${code}`, es: `Opción ${code}` }))),
);

export const SOAPPR_POSITIVE_FROM = 18;

function score(answers: InstrumentAnswers): ScoreResult {
  const codes = completeCodes(answers, questions);
  if (!codes) return nullScores(['total', 'positive']);
  const total = sumOf(codes, ITEM_COUNT);
  return { total, positive: total >= SOAPPR_POSITIVE_FROM ? 1 : 0 };
}

export const soappR: InstrumentDefinition = {
  formCode: 13,
  slug: 'soappr',
  name: {
    en: 'Screener and Opioid Assessment for Patients with Pain – Revised (SOAPP-R)',
    es: 'SOAPP-R',
  },
  version: 'SOAPP-R (Butler 2008)',
  wording: 'licensed',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(ITEM_COUNT),
  scores: [
    totalScore('total', { en: 'SOAPP-R total', es: 'Total SOAPP-R' }, 96),
    categoryScore('positive', { en: 'Screen result (18 or more)', es: 'Resultado del cribado (18 o más)' }, 1),
  ],
  headline: { key: 'total', maximum: 96 },
  bands: [
    {
      key: 'positive',
      labels: {
        0: { en: 'Below the cut-off', es: 'Por debajo del punto de corte' },
        1: { en: 'Positive: higher risk', es: 'Positivo: riesgo más alto' },
      },
    },
  ],
  score,
};
