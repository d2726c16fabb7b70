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
import { QuestionType, type FormSection } from '@pathwell/contracts/forms';
import type { InstrumentDefinition } from '../types.js';
import {
  allWorseWhenHigher,
  englishOnlyNotice,
  englishOptions,
  intervalScoreByTable,
  itemsInSections,
  rawAndIntervalScores,
} from './parts.js';

/** Interval score by raw sum 0..28 (100 = perfect knee health). */
const INTERVAL_BY_RAW = [
  100.0, 91.975, 84.6, 79.914, 76.332, 73.342, 70.704, 68.284, 65.994, 63.776, 61.583, 59.381, 57.14, 54.84, 52.465, 50.012,
  47.487, 44.905, 42.281, 39.625, 36.931, 34.174, 31.307, 28.251, 24.875, 20.941, 15.939, 8.291, 0.0,
];

const severityOptions = englishOptions(0, ['None', 'Mild', 'Moderate', 'Severe', 'Extreme']);

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

const questions = itemsInSections(QuestionType.LIKERT_SCALE, items, severityOptions);

export const koosJr: InstrumentDefinition = {
  formCode: 6,
  slug: 'koosjr',
  name: { en: 'KOOS, JR. (knee)' },
  version: 'KOOS JR (Lyman 2016)',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: { en: 'KOOS, JR. was developed at Hospital for Special Surgery (Lyman S et al., Clin Orthop Relat Res 2016).' },
  sections,
  questions,
  higherCodeIsWorse: allWorseWhenHigher(items.length),
  scores: rawAndIntervalScores(28),
  headline: { key: 'intervalScore', maximum: 100 },
  score: (answers) => intervalScoreByTable(answers, items.length, INTERVAL_BY_RAW),
};
