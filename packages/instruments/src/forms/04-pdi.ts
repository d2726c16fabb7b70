/*
 * Form 4: Pain Disability Index (Pollard 1984; Tait et al. 1987). No rights holder or fee was found
 * (scoring-reference.md section 4.4), so the English wording ships.
 * Wording: instructions and categories 1–4 as on the widely reproduced PDI form (copy at
 * scribd.com/document/471487635/pain-disability-index); categories 5–7 from the same form as transcribed
 * in public implementations (GitHub code search "driving the children to school", e.g. a React PDISurvey
 * component and a REDCap data dictionary). Where copies differ in one word (category 2 "This category
 * includes" / "This disability includes"), the reading shared by the REDCap and React copies is used.
 * Scoring: sum of the 7 ratings, 0–70; all 7 required (platform rule, reference section 3). No bands.
 * No MCID: the reference gives one only from memory.
 */
import { QuestionType, type QuestionOption } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import { allWorseWhenHigher, codesIn, englishOnlyNotice, items, sumOrNull, totalScore } from './parts.js';

const ratingOptions: QuestionOption[] = Array.from({ length: 11 }, (_, value) => ({
  value,
  label: { en: value === 0 ? '0 – No disability' : value === 10 ? '10 – Worst disability' : String(value) },
}));

const categories = [
  'Family/Home Responsibilities: This category refers to activities of the home or family. It includes chores or duties performed around the house (e.g. yard work) and errands or favors for other family members (e.g. driving the children to school).',
  'Recreation: This category includes hobbies, sports, and other similar leisure time activities.',
  'Social Activity: This category refers to activities, which involve participation with friends and acquaintances other than family members. It includes parties, theater, concerts, dining out, and other social functions.',
  'Occupation: This category refers to activities that are part of or directly related to one’s job. This includes non-paying jobs as well, such as that of a housewife or volunteer.',
  'Sexual Behavior: This category refers to the frequency and quality of one’s sex life.',
  'Self Care: This category includes activities, which involve personal maintenance and independent daily living (e.g. taking a shower, driving, getting dressed, etc.)',
  'Life-Support Activities: This category refers to basic life supporting behaviors such as eating, sleeping, and breathing.',
];

const questions = items(
  QuestionType.LIKERT_SCALE,
  categories.map((en) => ({ en })),
  ratingOptions,
);

function scorePdi(answers: InstrumentAnswers): ScoreResult {
  return { pdiTotal: sumOrNull(codesIn(answers, categories.length, 0, 10)) };
}

export const pdi: InstrumentDefinition = {
  formCode: 4,
  slug: 'pdi',
  name: { en: 'Pain Disability Index (PDI)' },
  version: 'PDI (Pollard 1984)',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  instructions: {
    en: 'The rating scales below are designed to measure the degree to which aspects of your life are disrupted by chronic pain. In other words, we would like to know how much pain is preventing you from doing what you would normally do or from doing it as well as you normally would. Respond to each category indicating the overall impact of pain in your life, not just when pain is at its worst. For each of the 7 categories of life activity listed, please circle the number on the scale that describes the level of disability you typically experience. A score of 0 means no disability at all, and a score of 10 signifies that all of the activities in which you would normally be involved have been totally disrupted or prevented by your pain.',
  },
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(categories.length),
  scores: [totalScore('pdiTotal', { en: 'Total', es: 'Total' }, 70)],
  headline: { key: 'pdiTotal', maximum: 70 },
  score: scorePdi,
};
