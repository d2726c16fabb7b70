/*
 * Form 8: Veterans RAND 12-item Health Survey (VR-12), stated to be in the public domain, so the English
 * wording ships.
 * Wording: items 1–12 (stems, items, answer labels) as transcribed in a public Shiny calculator (GitHub code
 * search "Yes, a little of the time", inputs pat0_vr12_1..pat0_vr12_7) and a FHIR Questionnaire of the
 * ICHOM stroke set (molic-avc, "VR-12 (Veterans RAND 12 Item Health Survey)"), which also gives items 13–14
 * (the one-year change questions, not scored); their answer labels (Much better … Much worse) as in that
 * Questionnaire's sample responses and a public VR-12 code map.
 * Scoring: scoring-reference.md section 4.8 — recodes to 0–100 and the complete-data ("key 0") PCS/MCS
 * weights of BU's 1990-norm mail-mode files (pcs90_vr12_mar14_native_mail / mcs90_…), full precision as in
 * chamtrain/choir-d TotalJointSurveyService.VR12ScoreProvider. Missing data needs BU's per-pattern
 * coefficient sets, which are not public: any missing scored item → no score (reference section 3).
 */
import { QuestionType, type FormQuestion, type FormSection, type QuestionOption } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import { completeCodes, englishOnlyNotice, englishOptions } from './parts.js';

const healthRating = englishOptions(1, ['Excellent', 'Very good', 'Good', 'Fair', 'Poor']);
const limitation = englishOptions(1, ['Yes, limited a lot', 'Yes, limited a little', 'No, not limited at all']);
const roleFrequency = englishOptions(1, [
  'No, none of the time',
  'Yes, a little of the time',
  'Yes, some of the time',
  'Yes, most of the time',
  'Yes, all of the time',
]);
const painInterference = englishOptions(1, ['Not at all', 'A little bit', 'Moderately', 'Quite a bit', 'Extremely']);
const timeSix = englishOptions(1, [
  'All of the time',
  'Most of the time',
  'A good bit of the time',
  'Some of the time',
  'A little of the time',
  'None of the time',
]);
const timeFive = englishOptions(1, [
  'All of the time',
  'Most of the time',
  'Some of the time',
  'A little of the time',
  'None of the time',
]);
const change = englishOptions(1, ['Much better', 'Slightly better', 'About the same', 'Slightly worse', 'Much worse']);

const sections: FormSection[] = [
  {
    id: 'activities',
    title: { en: 'Activities' },
    intro: {
      en: 'The following questions are about activities you might do during a typical day. Does your health now limit you in these activities? If so, how much?',
    },
  },
  {
    id: 'physicalHealth',
    title: { en: 'Physical health' },
    intro: {
      en: 'During the past 4 weeks, have you had any of the following problems with your work or other regular daily activities as a result of your physical health?',
    },
  },
  {
    id: 'emotionalProblems',
    title: { en: 'Emotional problems' },
    intro: {
      en: 'During the past 4 weeks, have you had any of the following problems with your work or other regular daily activities as a result of any emotional problems (such as feeling depressed or anxious)?',
    },
  },
  {
    id: 'feelings',
    title: { en: 'Feelings' },
    intro: {
      en: 'These questions are about how you feel and how things have been with you during the past 4 weeks. For each question, please give the one answer that comes closest to the way you have been feeling. How much of the time during the past 4 weeks:',
    },
  },
  {
    id: 'change',
    title: { en: 'Change in health' },
    intro: { en: "Now, we'd like to ask you some questions about how your health may have changed." },
  },
];

type ItemSpec = [text: string, options: QuestionOption[], sectionId?: string];

const itemSpecs: ItemSpec[] = [
  ['In general, would you say your health is:', healthRating],
  ['Moderate activities, such as moving a table, pushing a vacuum cleaner, bowling, or playing golf', limitation, 'activities'],
  ['Climbing several flights of stairs', limitation, 'activities'],
  ['Accomplished less than you would like', roleFrequency, 'physicalHealth'],
  ['Were limited in the kind of work or other activities', roleFrequency, 'physicalHealth'],
  ['Accomplished less than you would like', roleFrequency, 'emotionalProblems'],
  ["Didn't do work or other activities as carefully as usual", roleFrequency, 'emotionalProblems'],
  [
    'During the past 4 weeks, how much did pain interfere with your normal work (including both work outside the home and housework)?',
    painInterference,
  ],
  ['Have you felt calm and peaceful?', timeSix, 'feelings'],
  ['Did you have a lot of energy?', timeSix, 'feelings'],
  ['Have you felt downhearted and blue?', timeSix, 'feelings'],
  [
    'During the past 4 weeks, how much of the time has your physical health or emotional problems interfered with your social activities (like visiting with friends, relatives, etc.)?',
    timeFive,
  ],
  ['Compared to one year ago, how would you rate your physical health in general now?', change, 'change'],
  [
    'Compared to one year ago, how would you rate your emotional health (such as feeling anxious, depressed, or irritable) in general now?',
    change,
    'change',
  ],
];

const SCORED_ITEM_COUNT = 12;

const questions: FormQuestion[] = itemSpecs.map(([text, options, sectionId], index) => {
  const item = index + 1;
  const scored = item <= SCORED_ITEM_COUNT;
  const question: FormQuestion = {
    id: `q${item}`,
    type: QuestionType.LIKERT_SCALE,
    text: { en: text },
    required: scored,
    options,
  };
  if (sectionId) question.sectionId = sectionId;
  if (!scored) question.unscored = true;
  return question;
});

/** Recode of each scored item (q1..q12) from its printed code to 0–100, higher = better health. */
const recodes: readonly ((code: number) => number)[] = [
  (code) => [100, 85, 60, 35, 0][code - 1] ?? Number.NaN, // GH1
  (code) => (code - 1) * 50, // PF02
  (code) => (code - 1) * 50, // PF04
  (code) => (5 - code) * 25, // RP2
  (code) => (5 - code) * 25, // RP3
  (code) => (5 - code) * 25, // RE2
  (code) => (5 - code) * 25, // RE3
  (code) => (5 - code) * 25, // BP2
  (code) => (6 - code) * 20, // MH3
  (code) => (6 - code) * 20, // VT2
  (code) => (code - 1) * 20, // MH4
  (code) => (code - 1) * 25, // SF2
];

const PCS_CONSTANT = 21.0468597412109;
const MCS_CONSTANT = 12.6620483398437;
/** Weights in item order GH1, PF02, PF04, RP2, RP3, RE2, RE3, BP2, MH3, VT2, MH4, SF2. */
const PCS_WEIGHTS = [
  0.078252375125885, 0.0650640130043029, 0.0748361349105835, 0.0716978311538696, 0.0741541385650634, -0.0575982630252838,
  -0.0322689414024353, 0.133974909782409, -0.0424118638038635, 0.0299689620733261, -0.0533623993396759, 0.00460967794060707,
];
const MCS_WEIGHTS = [
  -0.00091592501848936, -0.0354986488819122, -0.0315771400928497, -0.0251735001802444, -0.0246522277593612, 0.126686096191406,
  0.080872356891632, -0.0243713706731796, 0.109408497810363, 0.0694271326065063, 0.149378895759582, 0.10857343673706,
];

function scoreVr12(answers: InstrumentAnswers): ScoreResult {
  const codes = completeCodes(answers, questions);
  if (!codes) return { pcs: null, mcs: null };
  let pcs = PCS_CONSTANT;
  let mcs = MCS_CONSTANT;
  for (let index = 0; index < SCORED_ITEM_COUNT; index += 1) {
    const recoded = recodes[index]?.(codes[`q${index + 1}`] ?? Number.NaN) ?? Number.NaN;
    pcs += recoded * (PCS_WEIGHTS[index] ?? Number.NaN);
    mcs += recoded * (MCS_WEIGHTS[index] ?? Number.NaN);
  }
  return { pcs, mcs };
}

export const vr12: InstrumentDefinition = {
  formCode: 8,
  slug: 'vr12',
  name: { en: 'Veterans RAND 12-Item Health Survey (VR-12)' },
  version: 'VR-12 (mail, 1990 norms)',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: { en: 'The VR-12 was developed in the Veterans Health Study (Kazis LE et al.) and is in the public domain.' },
  sections,
  questions,
  // By health direction. PCS has negative weights on RE2, RE3, MH3 and MH4 and MCS on the physical items,
  // so a worse answer there can raise the other summary score.
  higherCodeIsWorse: {
    q1: true,
    q2: false,
    q3: false,
    q4: true,
    q5: true,
    q6: true,
    q7: true,
    q8: true,
    q9: true,
    q10: true,
    q11: false,
    q12: false,
  },
  scores: [
    // Mathematical extremes with these weights (reference 4.8); MCS can be slightly negative.
    {
      key: 'pcs',
      label: { en: 'Physical component summary (PCS)', es: 'Resumen del componente físico (PCS)' },
      min: 2.48,
      max: 74.31,
      decimals: 1,
      higherIsBetter: true,
    },
    {
      key: 'mcs',
      label: { en: 'Mental component summary (MCS)', es: 'Resumen del componente mental (MCS)' },
      min: -1.56,
      max: 77.1,
      decimals: 1,
      higherIsBetter: true,
    },
  ],
  headline: { key: 'pcs', maximum: 100 },
  score: scoreVr12,
};
