import { QuestionType, type LocalizedText } from '@pathwell/contracts/forms';
import type { InstrumentAnswers, InstrumentDefinition, ScoreResult } from '../types.js';
import {
  allWorseWhenHigher,
  categoryScore,
  completeCodes,
  englishOnlyNotice,
  items,
  nullScores,
  options,
  sumOf,
  totalScore,
} from './parts.js';

const itemTexts: LocalizedText[] = [
  { en: 'My appetite was poor' },
  { en: 'I could not shake off the blues' },
  { en: 'I had trouble keeping my mind on what I was doing' },
  { en: 'I felt depressed' },
  { en: 'My sleep was restless' },
  { en: 'I felt sad' },
  { en: 'I could not get going' },
  { en: 'Nothing made me happy' },
  { en: 'I felt like a bad person' },
  { en: 'I lost interest in my usual activities' },
  { en: 'I slept much more than usual' },
  { en: 'I felt like I was moving too slowly' },
  { en: 'I felt fidgety' },
  { en: 'I wished I were dead' },
  { en: 'I wanted to hurt myself' },
  { en: 'I was tired all the time' },
  { en: 'I did not like myself' },
  { en: 'I lost a lot of weight without trying to' },
  { en: 'I had a lot of trouble getting to sleep' },
  { en: 'I could not focus on the important things' },
];

const questions = items(
  QuestionType.LIKERT_SCALE,
  itemTexts,
  options([
    { en: 'Not at all or less than 1 day' },
    { en: '1-2 days' },
    { en: '3-4 days' },
    { en: '5-7 days' },
    { en: 'Nearly every day for 2 weeks' },
  ]),
);

/** DSM symptom groups by item number (cesd-r.com): the two core groups, then the seven others. */
export const cesdrCoreGroups: readonly (readonly number[])[] = [
  [2, 4, 6], // dysphoria
  [8, 10], // anhedonia
];
export const cesdrOtherGroups: readonly (readonly number[])[] = [
  [1, 18], // appetite
  [5, 11, 19], // sleep
  [3, 20], // thinking
  [9, 17], // guilt
  [7, 16], // tiredness
  [12, 13], // movement
  [14, 15], // suicidal ideation
];

/**
 * Category, checked in this order (reference 4.15): 4 meets MDE criteria, 3 probable MDE, 2 possible MDE,
 * 1 subthreshold (total 16 or more), 0 no clinical significance. "Other groups" are the seven non-core
 * groups; a second core group never counts as one of them.
 */
export function cesdrCategory(codes: Record<string, number>, total: number): number {
  const code = (item: number) => codes[`q${item}`] ?? 0;
  const groupAtLeast = (group: readonly number[], level: number) => group.some((item) => code(item) >= level);
  const coreAtFour = cesdrCoreGroups.some((group) => groupAtLeast(group, 4));
  if (coreAtFour) {
    const othersAtFour = cesdrOtherGroups.filter((group) => groupAtLeast(group, 4)).length;
    const othersAtThree = cesdrOtherGroups.filter((group) => groupAtLeast(group, 3)).length;
    if (othersAtFour >= 4) return 4;
    if (othersAtThree >= 3) return 3;
    if (othersAtThree >= 2) return 2;
  }
  return total >= 16 ? 1 : 0;
}

function score(answers: InstrumentAnswers): ScoreResult {
  const codes = completeCodes(answers, questions);
  if (!codes) return nullScores(['total', 'category']);
  // CESD-style total: "nearly every day for 2 weeks" (4) counts as 3, keeping the CES-D 0–60 range.
  const total = sumOf(codes, 20, (code) => Math.min(code, 3));
  return { total, category: cesdrCategory(codes, total) };
}

export const cesdR: InstrumentDefinition = {
  formCode: 15,
  slug: 'cesdr',
  name: {
    en: 'Center for Epidemiologic Studies Depression Scale – Revised (CESD-R)',
    es: 'Escala de depresión CESD-R',
  },
  version: 'CESD-R (Eaton 2004)',
  wording: 'shipped',
  languages: ['en'],
  languageNotice: englishOnlyNotice,
  credit: {
    en: 'CESD-R: Eaton WW, Muntaner C, Smith C, Tien A, Ybarra M, 2004. In the public domain (cesd-r.com).',
  },
  instructions: {
    en: 'Below is a list of the ways you might have felt or behaved. Please mark the answers to indicate how often you have felt this way in the past week or so.',
  },
  sections: [],
  questions,
  higherCodeIsWorse: allWorseWhenHigher(20),
  scores: [
    totalScore('total', { en: 'CESD-R total', es: 'Total CESD-R' }, 60),
    categoryScore('category', { en: 'Category', es: 'Categoría' }, 4),
  ],
  headline: { key: 'total', maximum: 60 },
  bands: [
    {
      key: 'category',
      labels: {
        0: { en: 'No clinical significance', es: 'Sin significación clínica' },
        1: { en: 'Subthreshold depressive symptoms', es: 'Síntomas depresivos subumbrales' },
        2: { en: 'Possible major depressive episode', es: 'Posible episodio depresivo mayor' },
        3: { en: 'Probable major depressive episode', es: 'Probable episodio depresivo mayor' },
        4: { en: 'Meets criteria for major depressive episode', es: 'Cumple criterios de episodio depresivo mayor' },
      },
    },
  ],
  score,
};
