import {
  QuestionType,
  type FormQuestion,
  type LocalizedText,
  type QuestionOption,
  type QuestionTypeCode,
} from '@pathwell/contracts/forms';
import type { InstrumentAnswers, ScoreDescriptor, ScoreResult } from '../types.js';

/** Building blocks shared by the form definitions; each instrument's own text stays in its file. */

export const englishOnlyNotice: LocalizedText = {
  en: 'This questionnaire is available in English only; no validated Spanish translation is offered.',
  es: 'Este cuestionario solo está disponible en inglés; no se ofrece una traducción validada al español.',
};

/** Options coded `firstCode`, `firstCode + 1` … in printed order. */
export function options(labels: readonly LocalizedText[], firstCode = 0): QuestionOption[] {
  return labels.map((label, index) => ({ value: firstCode + index, label }));
}

/** `options` with English-only labels. */
export function englishOptions(firstCode: number, labels: readonly string[]): QuestionOption[] {
  return labels.map((en, index) => ({ value: firstCode + index, label: { en } }));
}

/** Neutral option labels of a licensed form: the code itself, until the licensed wording is imported. */
export function numberedOptions(codes: readonly number[]): QuestionOption[] {
  return codes.map((value) => ({ value, label: { en: String(value) } }));
}

/** `first`, `first + 1` … `last`. */
export function codesFrom(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

/** Items q1..qN with the same answer options; all required except the item numbers in `optional`. */
export function items(
  type: QuestionTypeCode,
  texts: readonly LocalizedText[],
  itemOptions: QuestionOption[],
  optional: readonly number[] = [],
): FormQuestion[] {
  return texts.map((text, index) => ({
    id: `q${index + 1}`,
    type,
    text,
    required: !optional.includes(index + 1),
    options: itemOptions,
  }));
}

/** Items q1..qN with the same answer options, each printed under one of the form's sections. */
export function itemsInSections(
  type: QuestionTypeCode,
  specs: readonly (readonly [text: string, sectionId: string])[],
  itemOptions: QuestionOption[],
): FormQuestion[] {
  return specs.map(([text, sectionId], index) => ({
    id: `q${index + 1}`,
    type,
    text: { en: text },
    required: true,
    sectionId,
    options: itemOptions,
  }));
}

/**
 * ODI and NDI as shipped: `Section 1` … `Section N`, each a choice among statements coded 0 to `maxCode`,
 * with neutral labels until the licensed wording is imported; only `optionalSection` may be skipped.
 */
export function neutralSections(count: number, maxCode: number, optionalSection: number): FormQuestion[] {
  return items(
    QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
    Array.from({ length: count }, (_, index) => ({ en: `Section ${index + 1}` })),
    numberedOptions(codesFrom(0, maxCode)),
    [optionalSection],
  );
}

export function allWorseWhenHigher(count: number): Record<string, boolean> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`q${index + 1}`, true]));
}

/** The answer to `id` when it is an integer code from `min` to `max`; anything else counts as missing. */
export function codeIn(answers: InstrumentAnswers, id: string, min: number, max: number): number | null {
  const value = answers[id];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) return null;
  return value;
}

/** `codeIn` for each of q1..q{count}. */
export function codesIn(answers: InstrumentAnswers, count: number, min: number, max: number): (number | null)[] {
  return Array.from({ length: count }, (_, index) => codeIn(answers, `q${index + 1}`, min, max));
}

/** The sum, or null when any value is missing (no proration). */
export function sumOrNull(values: readonly (number | null)[]): number | null {
  let total = 0;
  for (const value of values) {
    if (value === null) return null;
    total += value;
  }
  return total;
}

/** Sum and number of the items that are answered with a valid code (for forms that prorate). */
export function answeredSum(values: readonly (number | null)[]): { sum: number; answered: number } {
  let sum = 0;
  let answered = 0;
  for (const value of values) {
    if (value === null) continue;
    sum += value;
    answered += 1;
  }
  return { sum, answered };
}

/**
 * Percent of the worst possible score over the answered items only: sum / (maxCode × answered) × 100.
 * Integer arithmetic up to the one division, so equal fractions give exactly equal percents.
 */
export function proratedPercent(sum: number, answered: number, maxCode: number): number {
  return (100 * sum) / (maxCode * answered);
}

/**
 * The answer code of every scored question (and `sex`), or null when one is absent or is not one of the
 * question's codes, for the forms without a sanctioned proration (reference section 3).
 */
export function completeCodes(answers: InstrumentAnswers, questions: readonly FormQuestion[]): Record<string, number> | null {
  const codes: Record<string, number> = {};
  for (const question of questions) {
    if (question.unscored) continue;
    const value = answers[question.id];
    if (typeof value !== 'number' || !question.options?.some((option) => option.value === value)) return null;
    codes[question.id] = value;
  }
  return codes;
}

export function sumOf(codes: Record<string, number>, count: number, map: (code: number) => number = (code) => code): number {
  let total = 0;
  for (let index = 1; index <= count; index += 1) total += map(codes[`q${index}`] ?? 0);
  return total;
}

export function nullScores(keys: readonly string[]): ScoreResult {
  return Object.fromEntries(keys.map((key) => [key, null]));
}

/** Index of the band a total falls in: how many of the ascending lower bounds it reaches. */
export function levelFrom(total: number, lowerBounds: readonly number[]): number {
  return lowerBounds.filter((bound) => total >= bound).length;
}

/** A whole-number total from 0 to `max`, higher = worse health or higher risk. */
export function totalScore(key: string, label: LocalizedText, max: number): ScoreDescriptor {
  return { key, label, min: 0, max, decimals: 0, higherIsBetter: false };
}

/** A categorical code 0..`max` (band, severity, screen result), higher = worse. */
export function categoryScore(key: string, label: LocalizedText, max: number): ScoreDescriptor {
  return { key, label, min: 0, max, decimals: 0, higherIsBetter: false, categorical: true };
}

/** Raw sum of the 0–4 items and its interval score from the form's conversion table (index = raw sum). */
export function intervalScoreByTable(
  answers: InstrumentAnswers,
  itemCount: number,
  intervalByRaw: readonly number[],
): ScoreResult {
  const rawSum = sumOrNull(codesIn(answers, itemCount, 0, 4));
  if (rawSum === null) return { rawSum: null, intervalScore: null };
  return { rawSum, intervalScore: intervalByRaw[rawSum] ?? null };
}

export function rawAndIntervalScores(maxRaw: number): ScoreDescriptor[] {
  return [
    totalScore('rawSum', { en: 'Raw sum', es: 'Suma bruta' }, maxRaw),
    {
      key: 'intervalScore',
      label: { en: 'Interval score', es: 'Puntuación de intervalo' },
      min: 0,
      max: 100,
      decimals: 1,
      higherIsBetter: true,
    },
  ];
}

export const sexQuestion: FormQuestion = {
  id: 'sex',
  type: QuestionType.MULTIPLE_CHOICE_SINGLE_ALLOWED,
  text: { en: 'Sex', es: 'Sexo' },
  help: {
    en: 'The scoring of this questionnaire differs for women and men.',
    es: 'La puntuación de este cuestionario es distinta para mujeres y hombres.',
  },
  required: true,
  options: [
    { value: 1, label: { en: 'Female', es: 'Femenino' } },
    { value: 2, label: { en: 'Male', es: 'Masculino' } },
  ],
};

export const screenLabels: Record<number, LocalizedText> = {
  0: { en: 'Negative screen', es: 'Cribado negativo' },
  1: { en: 'Positive screen', es: 'Cribado positivo' },
};

export const phqCredit: LocalizedText = {
  en: 'Developed by Drs. Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke and colleagues, with an educational grant from Pfizer Inc. No permission required to reproduce, translate, display or distribute.',
};

export const phqTranslationSource =
  'Pfizer Inc., PHQ screeners, Spanish for the USA version (phqscreeners.com); text as published there and reproduced identically in independent clinical implementations.';

/** PHQ and GAD-7 stem and answer scale, English and Pfizer's Spanish for the USA. */
export const phqStem: LocalizedText = {
  en: 'Over the last 2 weeks, how often have you been bothered by any of the following problems?',
  es: 'Durante las últimas 2 semanas, ¿qué tan seguido ha tenido molestias debido a los siguientes problemas?',
};

export const phqFrequencyOptions = options([
  { en: 'Not at all', es: 'Ningún día' },
  { en: 'Several days', es: 'Varios días' },
  { en: 'More than half the days', es: 'Más de la mitad de los días' },
  { en: 'Nearly every day', es: 'Casi todos los días' },
]);

export const phqDepressionItems: LocalizedText[] = [
  { en: 'Little interest or pleasure in doing things', es: 'Poco interés o placer en hacer cosas' },
  { en: 'Feeling down, depressed, or hopeless', es: 'Se ha sentido decaído(a), deprimido(a) o sin esperanzas' },
  {
    en: 'Trouble falling or staying asleep, or sleeping too much',
    es: 'Ha tenido dificultad para quedarse o permanecer dormido(a), o ha dormido demasiado',
  },
  { en: 'Feeling tired or having little energy', es: 'Se ha sentido cansado(a) o con poca energía' },
  { en: 'Poor appetite or overeating', es: 'Sin apetito o ha comido en exceso' },
  {
    en: 'Feeling bad about yourself — or that you are a failure or have let yourself or your family down',
    es: 'Se ha sentido mal con usted mismo(a) – o que es un fracaso o que ha quedado mal con usted mismo(a) o con su familia',
  },
  {
    en: 'Trouble concentrating on things, such as reading the newspaper or watching television',
    es: 'Ha tenido dificultad para concentrarse en ciertas actividades, tales como leer el periódico o ver la televisión',
  },
  {
    en: 'Moving or speaking so slowly that other people could have noticed? Or the opposite — being so fidgety or restless that you have been moving around a lot more than usual',
    es: '¿Se ha movido o hablado tan lento que otras personas podrían haberlo notado? o lo contrario – muy inquieto(a) o agitado(a) que ha estado moviéndose mucho más de lo normal',
  },
  {
    en: 'Thoughts that you would be better off dead or of hurting yourself in some way',
    es: 'Pensamientos de que estaría mejor muerto(a) o de lastimarse de alguna manera',
  },
];
