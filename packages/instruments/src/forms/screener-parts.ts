import {
  QuestionType,
  type FormQuestion,
  type LocalizedText,
  type QuestionOption,
  type QuestionTypeCode,
} from '@pathwell/contracts/forms';
import type { InstrumentAnswers, ScoreResult } from '../types.js';

/** Forms 9–15: building blocks shared by the short screeners. */

export const englishOnlyNotice: LocalizedText = {
  en: 'This questionnaire is available in English only; no validated Spanish translation is offered.',
  es: 'Este cuestionario solo está disponible en inglés; no se ofrece una traducción validada al español.',
};

export function options(labels: readonly LocalizedText[], firstCode = 0): QuestionOption[] {
  return labels.map((label, index) => ({ value: firstCode + index, label }));
}

export function items(type: QuestionTypeCode, texts: readonly LocalizedText[], itemOptions: QuestionOption[]): FormQuestion[] {
  return texts.map((text, index) => ({ id: `q${index + 1}`, type, text, required: true, options: itemOptions }));
}

export function allWorseWhenHigher(count: number): Record<string, boolean> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`q${index + 1}`, true]));
}

export function nullScores(keys: readonly string[]): ScoreResult {
  return Object.fromEntries(keys.map((key) => [key, null]));
}

/**
 * The answer code of every scored question (and `sex`), or null when one is absent or is not one of the
 * question's codes: forms 9–15 have no sanctioned proration (reference section 3).
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
