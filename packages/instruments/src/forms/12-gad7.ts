import { QuestionType, type LocalizedText } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  categoryScore,
  completeCodes,
  items,
  levelFrom,
  nullScores,
  phqCredit,
  phqFrequencyOptions,
  phqStem,
  phqTranslationSource,
  sumOf,
  totalScore,
} from './parts.js';

const itemTexts: LocalizedText[] = [
  { en: 'Feeling nervous, anxious, or on edge', es: 'Se ha sentido nervioso(a), ansioso(a) o con los nervios de punta' },
  { en: 'Not being able to stop or control worrying', es: 'No ha sido capaz de parar o controlar su preocupación' },
  { en: 'Worrying too much about different things', es: 'Se ha preocupado demasiado por motivos diferentes' },
  { en: 'Trouble relaxing', es: 'Ha tenido dificultad para relajarse' },
  {
    en: 'Being so restless that it is hard to sit still',
    es: 'Se ha sentido tan inquieto(a) que no ha podido quedarse quieto(a)',
  },
  { en: 'Becoming easily annoyed or irritable', es: 'Se ha molestado o irritado fácilmente' },
  { en: 'Feeling afraid as if something awful might happen', es: 'Ha tenido miedo de que algo terrible fuera a pasar' },
];

const questions = items(QuestionType.LIKERT_SCALE, itemTexts, phqFrequencyOptions);

/** Severity from the total: 0–4 minimal, 5–9 mild, 10–14 moderate, 15–21 severe. */
export function gad7Severity(total: number): number {
  return levelFrom(total, [5, 10, 15]);
}

function score(answers: InstrumentAnswers): ScoreResult {
  const codes = completeCodes(answers, questions);
  if (!codes) return nullScores(['total', 'severity']);
  const total = sumOf(codes, 7);
  return { total, severity: gad7Severity(total) };
}

export const gad7: InstrumentDefinition = {
  formCode: 12,
  slug: 'gad7',
  name: { en: 'Generalized Anxiety Disorder 7-item scale (GAD-7)', es: 'Escala GAD-7' },
  version: 'GAD-7',
  wording: 'shipped',
  languages: ['en', 'es'],
  translationSource: phqTranslationSource,
  credit: phqCredit,
  instructions: phqStem,
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(7),
  scores: [
    totalScore('total', { en: 'GAD-7 total', es: 'Total GAD-7' }, 21),
    categoryScore('severity', { en: 'Anxiety severity', es: 'Gravedad de la ansiedad' }, 3),
  ],
  headline: { key: 'total', maximum: 21 },
  bands: [
    {
      key: 'severity',
      labels: {
        0: { en: 'Minimal', es: 'Mínima' },
        1: { en: 'Mild', es: 'Leve' },
        2: { en: 'Moderate', es: 'Moderada' },
        3: { en: 'Severe', es: 'Grave' },
      },
    },
  ],
  score,
};
