/*
 * Form 1 "SF36", administered and scored as the RAND 36-Item Health Survey 1.0 (same 36 items as the
 * MOS SF-36 v1; RAND's free 0–100 scoring, not the licensed SF-36v2 norm-based scoring).
 * Item wording, stems and answer labels: RAND 36-Item Health Survey 1.0 as transcribed in
 * awell-health/awell-score `src/scores/sf36/definition/sf36_inputs.ts`, cross-checked for the item list
 * against two further public transcriptions of the RAND form. Credit line and terms of use: RAND's
 * terms as quoted in ucam-department-of-psychiatry/camcops `docs/source/tasks/rand36.rst`.
 * Scoring: scoring-reference.md section 4.1 (RAND recode table, scale = mean of answered items) and the
 * platform rule of section 3 (a scale is null only when all its items are missing; composites and the
 * overall mean need all their scales).
 */
import {
  QuestionType,
  type FormQuestion,
  type FormSection,
  type LocalizedText,
  type QuestionOption,
} from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreDescriptor, ScoreResult } from '../types.js';
import { codeIn, englishOnlyNotice, englishOptions } from './parts.js';

const healthRating = englishOptions(1, ['Excellent', 'Very good', 'Good', 'Fair', 'Poor']);
const healthChange = englishOptions(1, [
  'Much better now than one year ago',
  'Somewhat better now than one year ago',
  'About the same',
  'Somewhat worse now than one year ago',
  'Much worse now than one year ago',
]);
const limitation = englishOptions(1, ['Yes, limited a lot', 'Yes, limited a little', 'No, not limited at all']);
const yesNo = englishOptions(1, ['Yes', 'No']);
const socialExtent = englishOptions(1, ['Not at all', 'Slightly', 'Moderately', 'Quite a bit', 'Extremely']);
const painAmount = englishOptions(1, ['None', 'Very mild', 'Mild', 'Moderate', 'Severe', 'Very severe']);
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
const trueFalse = englishOptions(1, ['Definitely true', 'Mostly true', "Don't know", 'Mostly false', 'Definitely false']);

const sections: FormSection[] = [
  {
    id: 'activities',
    title: { en: 'Activities' },
    intro: {
      en: 'The following items are about activities you might do during a typical day. Does your health now limit you in these activities? If so, how much?',
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
      en: 'These questions are about how you feel and how things have been with you during the past 4 weeks. For each question, please give the one answer that comes closest to the way you have been feeling. How much of the time during the past 4 weeks...',
    },
  },
  {
    id: 'statements',
    title: { en: 'Health statements' },
    intro: { en: 'How TRUE or FALSE is each of the following statements for you.' },
  },
];

type ItemSpec = [text: string, options: QuestionOption[], sectionId?: string];

const itemSpecs: ItemSpec[] = [
  ['In general, would you say your health is:', healthRating],
  ['Compared to one year ago, how would you rate your health in general now?', healthChange],
  ['Vigorous activities, such as running, lifting heavy objects, participating in strenuous sports', limitation, 'activities'],
  ['Moderate activities, such as moving a table, pushing a vacuum cleaner, bowling, or playing golf', limitation, 'activities'],
  ['Lifting or carrying groceries', limitation, 'activities'],
  ['Climbing several flights of stairs', limitation, 'activities'],
  ['Climbing one flight of stairs', limitation, 'activities'],
  ['Bending, kneeling, or stooping', limitation, 'activities'],
  ['Walking more than a mile', limitation, 'activities'],
  ['Walking several blocks', limitation, 'activities'],
  ['Walking one block', limitation, 'activities'],
  ['Bathing or dressing yourself', limitation, 'activities'],
  ['Cut down the amount of time you spent on work or other activities', yesNo, 'physicalHealth'],
  ['Accomplished less than you would like', yesNo, 'physicalHealth'],
  ['Were limited in the kind of work or other activities', yesNo, 'physicalHealth'],
  ['Had difficulty performing the work or other activities (for example, it took extra effort)', yesNo, 'physicalHealth'],
  ['Cut down the amount of time you spent on work or other activities', yesNo, 'emotionalProblems'],
  ['Accomplished less than you would like', yesNo, 'emotionalProblems'],
  ["Didn't do work or other activities as carefully as usual", yesNo, 'emotionalProblems'],
  [
    'During the past 4 weeks, to what extent has your physical health or emotional problems interfered with your normal social activities with family, friends, neighbors, or groups?',
    socialExtent,
  ],
  ['How much bodily pain have you had during the past 4 weeks?', painAmount],
  [
    'During the past 4 weeks, how much did pain interfere with your normal work (including both work outside the home and housework)?',
    painInterference,
  ],
  ['Did you feel full of pep?', timeSix, 'feelings'],
  ['Have you been a very nervous person?', timeSix, 'feelings'],
  ['Have you felt so down in the dumps that nothing could cheer you up?', timeSix, 'feelings'],
  ['Have you felt calm and peaceful?', timeSix, 'feelings'],
  ['Did you have a lot of energy?', timeSix, 'feelings'],
  ['Have you felt downhearted and blue?', timeSix, 'feelings'],
  ['Did you feel worn out?', timeSix, 'feelings'],
  ['Have you been a happy person?', timeSix, 'feelings'],
  ['Did you feel tired?', timeSix, 'feelings'],
  [
    'During the past 4 weeks, how much of the time has your physical health or emotional problems interfered with your social activities (like visiting with friends, relatives, etc.)?',
    timeFive,
  ],
  ['I seem to get sick a little easier than other people', trueFalse, 'statements'],
  ['I am as healthy as anybody I know', trueFalse, 'statements'],
  ['I expect my health to get worse', trueFalse, 'statements'],
  ['My health is excellent', trueFalse, 'statements'],
];

/** Item 2 (health transition) belongs to no RAND scale. */
const UNSCORED_ITEM = 2;

const questions: FormQuestion[] = itemSpecs.map(([text, options, sectionId], index) => {
  const item = index + 1;
  const question: FormQuestion = {
    id: `q${item}`,
    type: options === yesNo ? QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED : QuestionType.LIKERT_SCALE,
    text: { en: text },
    required: item !== UNSCORED_ITEM,
    options,
  };
  if (sectionId) question.sectionId = sectionId;
  if (item === UNSCORED_ITEM) question.unscored = true;
  return question;
});

/** RAND step 1: code (1-based) → 0–100, higher = better. */
const DESC_5 = [100, 75, 50, 25, 0];
const LIMIT_3 = [0, 50, 100];
const YES_NO_2 = [0, 100];
const DESC_6 = [100, 80, 60, 40, 20, 0];
const ASC_6 = [0, 20, 40, 60, 80, 100];
const ASC_5 = [0, 25, 50, 75, 100];

const recodeByItem = new Map<number, readonly number[]>();
for (const item of [1, 20, 22, 34, 36]) recodeByItem.set(item, DESC_5);
for (let item = 3; item <= 12; item += 1) recodeByItem.set(item, LIMIT_3);
for (let item = 13; item <= 19; item += 1) recodeByItem.set(item, YES_NO_2);
for (const item of [21, 23, 26, 27, 30]) recodeByItem.set(item, DESC_6);
for (const item of [24, 25, 28, 29, 31]) recodeByItem.set(item, ASC_6);
for (const item of [32, 33, 35]) recodeByItem.set(item, ASC_5);

const scales = {
  physicalFunctioning: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  rolePhysical: [13, 14, 15, 16],
  roleEmotional: [17, 18, 19],
  energyFatigue: [23, 27, 29, 31],
  emotionalWellBeing: [24, 25, 26, 28, 30],
  socialFunctioning: [20, 32],
  pain: [21, 22],
  generalHealth: [1, 33, 34, 35, 36],
} as const;
type ScaleKey = keyof typeof scales;

const physicalScales: ScaleKey[] = ['physicalFunctioning', 'rolePhysical', 'pain', 'generalHealth'];
const mentalScales: ScaleKey[] = ['energyFatigue', 'socialFunctioning', 'roleEmotional', 'emotionalWellBeing'];

function recoded(answers: InstrumentAnswers, item: number): number | null {
  const table = recodeByItem.get(item);
  if (!table) return null;
  const code = codeIn(answers, `q${item}`, 1, table.length);
  return code === null ? null : (table[code - 1] ?? null);
}

function mean(values: readonly (number | null)[]): number | null {
  if (values.length === 0 || values.some((value) => value === null)) return null;
  return (values as number[]).reduce((sum, value) => sum + value, 0) / values.length;
}

function scoreRand36(answers: InstrumentAnswers): ScoreResult {
  const result: Record<ScaleKey, number | null> = {
    physicalFunctioning: null,
    rolePhysical: null,
    roleEmotional: null,
    energyFatigue: null,
    emotionalWellBeing: null,
    socialFunctioning: null,
    pain: null,
    generalHealth: null,
  };
  for (const key of Object.keys(scales) as ScaleKey[]) {
    const answered = scales[key].map((item) => recoded(answers, item)).filter((value): value is number => value !== null);
    result[key] = answered.length > 0 ? answered.reduce((sum, value) => sum + value, 0) / answered.length : null;
  }
  const pcsUnweighted = mean(physicalScales.map((key) => result[key]));
  const mcsUnweighted = mean(mentalScales.map((key) => result[key]));
  return {
    ...result,
    pcsUnweighted,
    mcsUnweighted,
    overallMean8: mean([...physicalScales, ...mentalScales].map((key) => result[key])),
  };
}

function scaleScore(key: string, label: LocalizedText): ScoreDescriptor {
  return { key, label, min: 0, max: 100, decimals: 1, higherIsBetter: true };
}

const higherCodeIsWorse: Record<string, boolean> = {};
for (const [item, table] of recodeByItem) higherCodeIsWorse[`q${item}`] = (table[0] ?? 0) > (table[table.length - 1] ?? 0);

export const sf36: InstrumentDefinition = {
  formCode: 1,
  slug: 'sf36',
  name: { en: 'RAND-36 (SF-36 v1 items)' },
  version: 'RAND-36 1.0',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: { en: 'The RAND 36-Item Health Survey was developed at RAND as part of the Medical Outcomes Study.' },
  sections,
  questions,
  higherCodeIsWorse,
  scores: [
    scaleScore('physicalFunctioning', { en: 'Physical functioning', es: 'Función física' }),
    scaleScore('rolePhysical', { en: 'Role limitations due to physical health', es: 'Limitaciones de rol por salud física' }),
    scaleScore('roleEmotional', {
      en: 'Role limitations due to emotional problems',
      es: 'Limitaciones de rol por problemas emocionales',
    }),
    scaleScore('energyFatigue', { en: 'Energy/fatigue', es: 'Energía/fatiga' }),
    scaleScore('emotionalWellBeing', { en: 'Emotional well-being', es: 'Bienestar emocional' }),
    scaleScore('socialFunctioning', { en: 'Social functioning', es: 'Función social' }),
    scaleScore('pain', { en: 'Pain', es: 'Dolor' }),
    scaleScore('generalHealth', { en: 'General health', es: 'Salud general' }),
    scaleScore('pcsUnweighted', { en: 'Physical composite (unweighted)', es: 'Componente físico (sin ponderar)' }),
    scaleScore('mcsUnweighted', { en: 'Mental composite (unweighted)', es: 'Componente mental (sin ponderar)' }),
    scaleScore('overallMean8', { en: 'Mean of the 8 scales', es: 'Media de las 8 escalas' }),
  ],
  headline: { key: 'overallMean8', maximum: 100 },
  score: scoreRand36,
};
