/*
 * Form 5: HOOS, JR. (Hip disability and Osteoarthritis Outcome Score for Joint Replacement; Lyman S et
 * al., Clin Orthop Relat Res 2016;474:1472–1482), created at Hospital for Special Surgery as a
 * non-proprietary survey, so the English wording ships.
 * Wording (stems, items, answer labels): the HSS form as transcribed in a public PRO collection
 * (GitHub code search "What amount of hip pain have you experienced", `hipQuestions` with sections PAIN
 * and PHYSICAL FUNCTION); item list cross-checked with the HL7 PACIO sample-data IG Questionnaire
 * (paciowg/sample-data-fsh `input/fsh/EX_jd1_questionnaire-hoosjr.fsh`, LOINC 82316-1).
 * Scoring: raw sum 0–24 converted with the interval table of scoring-reference.md section 4.5 (as coded in
 * chamtrain/choir-d TotalJointSurveyService). All 6 items required (platform rule, reference section 3).
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

/** Interval score by raw sum 0..24 (100 = perfect hip health). */
const INTERVAL_BY_RAW = [
  100.0, 92.34, 85.257, 80.55, 76.776, 73.472, 70.426, 67.516, 64.664, 61.815, 58.93, 55.985, 52.965, 49.858, 46.652, 43.335,
  39.902, 36.363, 32.735, 29.009, 25.103, 20.805, 15.633, 8.104, 0.0,
];

const severityOptions = englishOptions(0, ['None', 'Mild', 'Moderate', 'Severe', 'Extreme']);

const sections: FormSection[] = [
  {
    id: 'pain',
    title: { en: 'Pain' },
    intro: { en: 'What amount of hip pain have you experienced the last week during the following activities?' },
  },
  {
    id: 'function',
    title: { en: 'Physical function' },
    intro: {
      en: 'The following questions concern your physical function. By this we mean your ability to move around and to look after yourself. For each of the following activities please indicate the degree of difficulty you have experienced in the last week due to your hip.',
    },
  },
];

const items: [text: string, sectionId: string][] = [
  ['Going up or down stairs', 'pain'],
  ['Walking on an uneven surface', 'pain'],
  ['Rising from sitting', 'function'],
  ['Bending to floor/pick up an object', 'function'],
  ['Lying in bed (turning over, maintaining hip position)', 'function'],
  ['Sitting', 'function'],
];

const questions = itemsInSections(QuestionType.LIKERT_SCALE, items, severityOptions);

export const hoosJr: InstrumentDefinition = {
  formCode: 5,
  slug: 'hoosjr',
  name: { en: 'HOOS, JR. (hip)' },
  version: 'HOOS JR (Lyman 2016)',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: { en: 'HOOS, JR. was developed at Hospital for Special Surgery (Lyman S et al., Clin Orthop Relat Res 2016).' },
  sections,
  questions,
  higherCodeIsWorse: allWorseWhenHigher(items.length),
  scores: rawAndIntervalScores(24),
  headline: { key: 'intervalScore', maximum: 100 },
  score: (answers) => intervalScoreByTable(answers, items.length, INTERVAL_BY_RAW),
};
