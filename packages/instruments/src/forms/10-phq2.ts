import { QuestionType } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  categoryScore,
  completeCodes,
  items,
  nullScores,
  phqCredit,
  phqDepressionItems,
  phqFrequencyOptions,
  phqStem,
  phqTranslationSource,
  screenLabels,
  sumOf,
  totalScore,
} from './parts.js';

/** PHQ-2 = the first two PHQ-9 items, worded as on the PHQ-9 form in both languages. */
const questions = items(QuestionType.LIKERT_SCALE, phqDepressionItems.slice(0, 2), phqFrequencyOptions);

export const PHQ2_POSITIVE_FROM = 3;

function score(answers: InstrumentAnswers): ScoreResult {
  const codes = completeCodes(answers, questions);
  if (!codes) return nullScores(['total', 'screenPositive']);
  const total = sumOf(codes, 2);
  return { total, screenPositive: total >= PHQ2_POSITIVE_FROM ? 1 : 0 };
}

export const phq2: InstrumentDefinition = {
  formCode: 10,
  slug: 'phq2',
  name: {
    en: 'Patient Health Questionnaire-2 (PHQ-2)',
    es: 'Cuestionario sobre la salud del paciente-2 (PHQ-2)',
  },
  version: 'PHQ-2',
  wording: 'shipped',
  languages: ['en', 'es'],
  translationSource: phqTranslationSource,
  credit: phqCredit,
  instructions: phqStem,
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(2),
  scores: [
    totalScore('total', { en: 'PHQ-2 total', es: 'Total PHQ-2' }, 6),
    categoryScore('screenPositive', { en: 'Screen result (3 or more)', es: 'Resultado del cribado (3 o más)' }, 1),
  ],
  headline: { key: 'total', maximum: 6 },
  bands: [{ key: 'screenPositive', labels: screenLabels }],
  score,
};
