import { QuestionType, type LocalizedText } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  categoryScore,
  completeCodes,
  englishOnlyNotice,
  items,
  levelFrom,
  nullScores,
  options,
  sexQuestion,
  totalScore,
} from './parts.js';

const itemTexts: LocalizedText[] = [
  { en: 'Family history of substance abuse: alcohol' },
  { en: 'Family history of substance abuse: illegal drugs' },
  { en: 'Family history of substance abuse: prescription drugs' },
  { en: 'Personal history of substance abuse: alcohol' },
  { en: 'Personal history of substance abuse: illegal drugs' },
  { en: 'Personal history of substance abuse: prescription drugs' },
  { en: 'Age between 16 and 45' },
  { en: 'History of preadolescent sexual abuse' },
  {
    en: 'Psychological disease: attention deficit disorder, obsessive-compulsive disorder, bipolar disorder or schizophrenia',
  },
  { en: 'Psychological disease: depression' },
];

/** Points for a "yes" on q1..q10 (Webster 2005): the weights, not the cut-offs, differ by sex. */
export const ortWeights = {
  female: [1, 2, 4, 3, 4, 5, 1, 3, 2, 1],
  male: [3, 3, 4, 3, 4, 5, 1, 0, 2, 1],
} as const;

/** Risk category from the total: 0–3 low, 4–7 moderate, 8 or more high. */
export function ortRiskCategory(total: number): number {
  return levelFrom(total, [4, 8]);
}

const questions = [
  ...items(
    QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
    itemTexts,
    options([
      { en: 'No', es: 'No' },
      { en: 'Yes', es: 'Sí' },
    ]),
  ),
  sexQuestion,
];

function score(answers: InstrumentAnswers): ScoreResult {
  const codes = completeCodes(answers, questions);
  if (!codes) return nullScores(['total', 'riskCategory']);
  const weights = codes.sex === 2 ? ortWeights.male : ortWeights.female;
  const total = weights.reduce<number>((sum, weight, index) => sum + weight * (codes[`q${index + 1}`] ?? 0), 0);
  return { total, riskCategory: ortRiskCategory(total) };
}

export const ort: InstrumentDefinition = {
  formCode: 9,
  slug: 'ort',
  name: { en: 'Opioid Risk Tool (ORT)', es: 'Herramienta de riesgo de opioides (ORT)' },
  version: 'ORT (Webster 2005)',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: { en: 'Opioid Risk Tool: Webster LR, Webster RM. Pain Medicine 2005;6:432–442.' },
  instructions: { en: 'Please answer yes or no to each question.' },
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(10),
  scores: [
    totalScore('total', { en: 'ORT total', es: 'Total ORT' }, 26),
    categoryScore('riskCategory', { en: 'Risk category', es: 'Categoría de riesgo' }, 2),
  ],
  headline: { key: 'total', maximum: 26 },
  bands: [
    {
      key: 'riskCategory',
      labels: {
        0: { en: 'Low risk', es: 'Riesgo bajo' },
        1: { en: 'Moderate risk', es: 'Riesgo moderado' },
        2: { en: 'High risk', es: 'Riesgo alto' },
      },
    },
  ],
  score,
};
