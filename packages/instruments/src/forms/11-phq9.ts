import { QuestionType, type FormQuestion } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  categoryScore,
  completeCodes,
  items,
  levelFrom,
  nullScores,
  options,
  phqCredit,
  phqDepressionItems,
  phqFrequencyOptions,
  phqStem,
  phqTranslationSource,
  sumOf,
  totalScore,
} from './parts.js';

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
  return levelFrom(total, [5, 10, 15, 20]);
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
    totalScore('total', { en: 'PHQ-9 total', es: 'Total PHQ-9' }, 27),
    categoryScore('severity', { en: 'Depression severity', es: 'Gravedad de la depresión' }, 4),
    categoryScore(
      'item9Positive',
      { en: 'Item 9 (self-harm thoughts) endorsed', es: 'Ítem 9 (pensamientos de autolesión) marcado' },
      1,
    ),
  ],
  headline: { key: 'total', maximum: 27 },
  criticalItems: [
    {
      key: 'phq9-item9',
      itemId: 'q9',
      // Any answer above "Not at all" (code 0): the instructions make no threshold above it.
      minimumCode: 1,
      label: {
        en: 'PHQ-9 item 9: thoughts of death or self-harm',
        es: 'PHQ-9 ítem 9: pensamientos de muerte o de lastimarse',
      },
      source:
        'Kroenke K, Spitzer RL, Williams JBW. The PHQ-9: validity of a brief depression severity measure. J Gen Intern Med 2001;16(9):606-613; ' +
        'Pfizer Inc., Instructions for Patient Health Questionnaire (PHQ) and GAD-7 measures (phqscreeners.com): ' +
        '"Question 9 is a single screening question on suicide risk. A patient who answers yes to question 9 needs further assessment for suicide risk by an individual who is competent to assess this risk."',
    },
  ],
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
