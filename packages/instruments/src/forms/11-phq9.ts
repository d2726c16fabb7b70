import { QuestionType, type FormQuestion } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  completeCodes,
  items,
  nullScores,
  options,
  phqCredit,
  phqDepressionItems,
  phqFrequencyOptions,
  phqStem,
  phqTranslationSource,
  sumOf,
} from './screener-parts.js';

/** The difficulty question printed under the nine items; it counts towards no score. */
const difficultyQuestion: FormQuestion = {
  id: 'q10',
  type: QuestionType.LIKERT_SCALE,
  text: {
    en: 'If you checked off any problems, how difficult have these problems made it for you to do your work, take care of things at home, or get along with other people?',
    es: 'Si marcó cualquiera de los problemas, ¿qué tanta dificultad le han dado estos problemas para hacer su trabajo, encargarse de las tareas del hogar, o llevarse bien con otras personas?',
  },
  required: false,
  unscored: true,
  options: options([
    { en: 'Not difficult at all', es: 'No ha sido difícil' },
    { en: 'Somewhat difficult', es: 'Un poco difícil' },
    { en: 'Very difficult', es: 'Muy difícil' },
    { en: 'Extremely difficult', es: 'Extremadamente difícil' },
  ]),
};

const questions = [...items(QuestionType.LIKERT_SCALE, phqDepressionItems, phqFrequencyOptions), difficultyQuestion];

/** Severity from the total: 0–4 minimal, 5–9 mild, 10–14 moderate, 15–19 moderately severe, 20–27 severe. */
export function phq9Severity(total: number): number {
  if (total >= 20) return 4;
  if (total >= 15) return 3;
  if (total >= 10) return 2;
  if (total >= 5) return 1;
  return 0;
}

function score(answers: InstrumentAnswers): ScoreResult {
  const codes = completeCodes(answers, questions);
  if (!codes) return nullScores(['total', 'severity', 'item9Positive']);
  const total = sumOf(codes, 9);
  // Item 9 (thoughts of death or self-harm) flags for safety whatever the total.
  return { total, severity: phq9Severity(total), item9Positive: (codes.q9 ?? 0) > 0 ? 1 : 0 };
}

export const phq9: InstrumentDefinition = {
  formCode: 11,
  slug: 'phq9',
  name: {
    en: 'Patient Health Questionnaire-9 (PHQ-9)',
    es: 'Cuestionario sobre la salud del paciente-9 (PHQ-9)',
  },
  version: 'PHQ-9',
  wording: 'shipped',
  languages: ['en', 'es'],
  translationSource: phqTranslationSource,
  credit: phqCredit,
  instructions: phqStem,
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(9),
  scores: [
    { key: 'total', label: { en: 'PHQ-9 total', es: 'Total PHQ-9' }, min: 0, max: 27, decimals: 0, higherIsBetter: false },
    {
      key: 'severity',
      label: { en: 'Depression severity', es: 'Gravedad de la depresión' },
      min: 0,
      max: 4,
      decimals: 0,
      higherIsBetter: false,
      categorical: true,
    },
    {
      key: 'item9Positive',
      label: { en: 'Item 9 (self-harm thoughts) endorsed', es: 'Ítem 9 (pensamientos de autolesión) marcado' },
      min: 0,
      max: 1,
      decimals: 0,
      higherIsBetter: false,
      categorical: true,
    },
  ],
  headline: { key: 'total', maximum: 27 },
  bands: [
    {
      key: 'severity',
      labels: {
        0: { en: 'Minimal', es: 'Mínima' },
        1: { en: 'Mild', es: 'Leve' },
        2: { en: 'Moderate', es: 'Moderada' },
        3: { en: 'Moderately severe', es: 'Moderadamente grave' },
        4: { en: 'Severe', es: 'Grave' },
      },
    },
    {
      key: 'item9Positive',
      labels: {
        0: { en: 'Item 9 not endorsed', es: 'Ítem 9 no marcado' },
        1: { en: 'Item 9 endorsed: review safety', es: 'Ítem 9 marcado: revisar la seguridad' },
      },
    },
  ],
  score,
};
