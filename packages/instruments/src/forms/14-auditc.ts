import { QuestionType } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  categoryScore,
  completeCodes,
  englishOnlyNotice,
  nullScores,
  options,
  screenLabels,
  sexQuestion,
  sumOf,
  totalScore,
} from './parts.js';

/**
 * Positive screen from this total by sex (US validation, Bradley 2003). Kept as data: some programmes use
 * 5 for men (reference 4.14).
 */
export interface AuditCCutoffs {
  female: number;
  male: number;
}

const cutoffs: AuditCCutoffs = { female: 3, male: 4 };

const questions = [
  {
    id: 'q1',
    type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
    text: { en: 'How often did you have a drink containing alcohol in the past year?' },
    required: true,
    options: options([
      { en: 'Never' },
      { en: 'Monthly or less' },
      { en: '2 to 4 times a month' },
      { en: '2 to 3 times a week' },
      { en: '4 or more times a week' },
    ]),
  },
  {
    id: 'q2',
    type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
    text: { en: 'How many drinks did you have on a typical day when you were drinking in the past year?' },
    required: true,
    options: options([{ en: '0, 1, or 2' }, { en: '3 or 4' }, { en: '5 or 6' }, { en: '7, 8, or 9' }, { en: '10 or more' }]),
  },
  {
    id: 'q3',
    type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
    text: { en: 'How often did you have 6 or more drinks on one occasion in the past year?' },
    required: true,
    options: options([
      { en: 'Never' },
      { en: 'Less than monthly' },
      { en: 'Monthly' },
      { en: 'Weekly' },
      { en: 'Daily or almost daily' },
    ]),
  },
  sexQuestion,
];

function score(answers: InstrumentAnswers): ScoreResult {
  const codes = completeCodes(answers, questions);
  if (!codes) return nullScores(['total', 'screenPositive']);
  const total = sumOf(codes, 3);
  const positiveFrom = codes.sex === 2 ? auditC.cutoffs.male : auditC.cutoffs.female;
  return { total, screenPositive: total >= positiveFrom ? 1 : 0 };
}

export const auditC: InstrumentDefinition & { cutoffs: AuditCCutoffs } = {
  formCode: 14,
  slug: 'auditc',
  name: { en: 'AUDIT-C (alcohol use)', es: 'AUDIT-C (consumo de alcohol)' },
  version: 'AUDIT-C (Bush 1998)',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: {
    en: 'AUDIT-C: Bush K, Kivlahan DR, McDonell MB, Fihn SD, Bradley KA. Arch Intern Med 1998;158:1789–1795. In the public domain.',
  },
  instructions: {
    en: 'Consider a “drink” to be a can or bottle of beer, a glass of wine, a wine cooler, or one cocktail or a shot of hard liquor (like scotch, gin, or vodka).',
  },
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(3),
  scores: [
    totalScore('total', { en: 'AUDIT-C total', es: 'Total AUDIT-C' }, 12),
    categoryScore(
      'screenPositive',
      { en: 'Screen result (women 3+, men 4+)', es: 'Resultado del cribado (mujeres 3+, hombres 4+)' },
      1,
    ),
  ],
  headline: { key: 'total', maximum: 12 },
  bands: [{ key: 'screenPositive', labels: screenLabels }],
  cutoffs,
  score,
};
