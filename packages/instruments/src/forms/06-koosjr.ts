/*
 * Form 6: KOOS, JR. (Knee injury and Osteoarthritis Outcome Score for Joint Replacement; Lyman S et al.,
 * Clin Orthop Relat Res 2016;474:1461–1471), created at Hospital for Special Surgery as a
 * non-proprietary survey, so the English wording ships.
 * Wording (stems, items, answer labels): the HSS form as transcribed in a public PRO collection
 * (GitHub code search "What amount of hip pain have you experienced", `kneeQuestions` with sections
 * STIFFNESS, PAIN and FUNCTION, DAILY LIVING); item list cross-checked with the HL7 PACIO sample-data IG
 * Questionnaire (paciowg/sample-data-fsh `input/fsh/EX_jd1_questionnaire-koosjr.fsh`, LOINC 82324-5).
 * Scoring: raw sum 0–28 converted with the interval table of scoring-reference.md section 4.6 (as coded in
 * chamtrain/choir-d TotalJointSurveyService). All 7 items required (platform rule, reference section 3).
 * The PACIO IG embeds a different conversion table; the reference's table is used (ask HSS before release).
 */
import { QuestionType, type FormQuestion, type FormSection, type QuestionOption } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';

/** Interval score by raw sum 0..28 (100 = perfect knee health). */
const INTERVAL_BY_RAW = [
  100.0, 91.975, 84.6, 79.914, 76.332, 73.342, 70.704, 68.284, 65.994, 63.776, 61.583, 59.381, 57.14, 54.84, 52.465, 50.012,
  47.487, 44.905, 42.281, 39.625, 36.931, 34.174, 31.307, 28.251, 24.875, 20.941, 15.939, 8.291, 0.0,
];

const severityOptions: QuestionOption[] = ['None', 'Mild', 'Moderate', 'Severe', 'Extreme'].map((en, value) => ({
  value,
  label: { en },
}));

const sections: FormSection[] = [
  {
    id: 'stiffness',
    title: { en: 'Stiffness' },
    intro: {
      en: 'The following question concerns the amount of joint stiffness you have experienced during the last week in your knee. Stiffness is a sensation of restriction or slowness in the ease with which you move your knee joint.',
    },
  },
  {
    id: 'pain',
    title: { en: 'Pain' },
    intro: { en: 'What amount of knee pain have you experienced the last week during the following activities?' },
  },
  {
    id: 'function',
    title: { en: 'Function, daily living' },
    intro: {
      en: 'The following questions concern your physical function. By this we mean your ability to move around and to look after yourself. For each of the following activities please indicate the degree of difficulty you have experienced in the last week due to your knee.',
    },
  },
];

const items: [text: string, sectionId: string][] = [
  ['How severe is your knee stiffness after first wakening in the morning?', 'stiffness'],
  ['Twisting/pivoting on your knee', 'pain'],
  ['Straightening knee fully', 'pain'],
  ['Going up or down stairs', 'pain'],
  ['Standing upright', 'pain'],
  ['Rising from sitting', 'function'],
  ['Bending to floor/pick up an object', 'function'],
];

const questions: FormQuestion[] = items.map(([text, sectionId], index) => ({
  id: `q${index + 1}`,
  type: QuestionType.LIKERT_SCALE,
  text: { en: text },
  required: true,
  sectionId,
  options: severityOptions,
}));

function scoreKoosJr(answers: InstrumentAnswers): ScoreResult {
  let rawSum = 0;
  for (let item = 1; item <= items.length; item += 1) {
    const value = answers[`q${item}`];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 4)
      return { rawSum: null, intervalScore: null };
    rawSum += value;
  }
  return { rawSum, intervalScore: INTERVAL_BY_RAW[rawSum] ?? null };
}

export const koosJr: InstrumentDefinition = {
  formCode: 6,
  slug: 'koosjr',
  name: { en: 'KOOS, JR. (knee)' },
  version: 'KOOS JR (Lyman 2016)',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: {
    en: 'This questionnaire is available in English only; no validated Spanish translation is offered.',
    es: 'Este cuestionario solo está disponible en inglés; no se ofrece una traducción validada al español.',
  },
  credit: { en: 'KOOS, JR. was developed at Hospital for Special Surgery (Lyman S et al., Clin Orthop Relat Res 2016).' },
  sections,
  questions,
  higherCodeIsWorse: Object.fromEntries(questions.map((question) => [question.id, true])),
  scores: [
    { key: 'rawSum', label: { en: 'Raw sum', es: 'Suma bruta' }, min: 0, max: 28, decimals: 0, higherIsBetter: false },
    {
      key: 'intervalScore',
      label: { en: 'Interval score', es: 'Puntuación de intervalo' },
      min: 0,
      max: 100,
      decimals: 1,
      higherIsBetter: true,
    },
  ],
  headline: { key: 'intervalScore', maximum: 100 },
  score: scoreKoosJr,
};
