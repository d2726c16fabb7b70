import { z } from 'zod';
import {
  formLanguageSchema,
  localizedTextSchema,
  type FormLanguage,
  type LocalizedText,
  type RenderableForm,
} from '@pathwell/contracts/forms';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import { sf36 } from './forms/01-sf36.js';
import { odi } from './forms/02-odi.js';
import { ndi } from './forms/03-ndi.js';
import { pdi } from './forms/04-pdi.js';
import { hoosJr } from './forms/05-hoosjr.js';
import { koosJr } from './forms/06-koosjr.js';
import { promisGlobal10 } from './forms/07-promis-global10.js';
import { vr12 } from './forms/08-vr12.js';
import { ort } from './forms/09-ort.js';
import { phq2 } from './forms/10-phq2.js';
import { phq9 } from './forms/11-phq9.js';
import { gad7 } from './forms/12-gad7.js';
import { soappR } from './forms/13-soappr.js';
import { auditC } from './forms/14-auditc.js';
import { cesdR } from './forms/15-cesdr.js';
import { englishOnlyNotice } from './forms/parts.js';
import { criticalFindingsOf, type CriticalFinding } from './critical.js';
import { formCodes, type FormCode, type InstrumentAnswers, type InstrumentDefinition, type ScoreResult } from './types.js';

export * from './types.js';
export { criticalFindingsOf, type CriticalFinding } from './critical.js';

/** The 15 outcome forms of specification section 3, by form code. */
export const instruments: Readonly<Record<FormCode, InstrumentDefinition>> = {
  1: sf36,
  2: odi,
  3: ndi,
  4: pdi,
  5: hoosJr,
  6: koosJr,
  7: promisGlobal10,
  8: vr12,
  9: ort,
  10: phq2,
  11: phq9,
  12: gad7,
  13: soappR,
  14: auditC,
  15: cesdR,
};

export function isFormCode(value: unknown): value is FormCode {
  return typeof value === 'number' && (formCodes as readonly number[]).includes(value);
}

export function getInstrument(formCode: FormCode): InstrumentDefinition {
  return instruments[formCode];
}

export function instrumentBySlug(slug: string): InstrumentDefinition | undefined {
  return formCodes.map((code) => instruments[code]).find((definition) => definition.slug === slug);
}

/**
 * Every score the reference defines for the form, keyed as in the vector file; null where the form is
 * not scorable with these answers.
 */
export function scoreForm(formCode: FormCode, answers: InstrumentAnswers): ScoreResult {
  return instruments[formCode].score(answers);
}

/** The response's critical findings (safety items answered at or above their threshold), in item order. */
export function criticalFindings(formCode: FormCode, answers: InstrumentAnswers): CriticalFinding[] {
  return criticalFindingsOf(instruments[formCode], answers);
}

/** The one number reports use (decision 0017) and the form's primary categorical code, if it has one. */
export function headlineOf(formCode: FormCode, scores: ScoreResult): { score: number | null; band: number | null } {
  const definition = instruments[formCode];
  const bandKey = definition.bands?.[0]?.key;
  return {
    score: scores[definition.headline.key] ?? null,
    band: bandKey === undefined ? null : (scores[bandKey] ?? null),
  };
}

// ---- licensed wording (ODI, NDI, PROMIS Global-10, SOAPP-R), imported per instance ----------------

const wordingOptionSchema = z.object({ value: z.number().finite(), label: localizedTextSchema });

/** A System Manager's import of a licensed instrument's text; it must fit the shipped structure exactly. */
export const licensedWordingSchema = z.object({
  formCode: z.number().int().min(1, 'invalid').max(15, 'invalid'),
  /** Citation and copyright line of the licensed copy; shown with the form as its credit line. */
  source: z.string().trim().min(1, 'required').max(1000, 'tooLong'),
  languages: z.array(formLanguageSchema).min(1).max(2),
  instructions: localizedTextSchema.optional(),
  sections: z
    .array(z.object({ id: z.string().min(1).max(40), title: localizedTextSchema }))
    .max(50)
    .optional(),
  questions: z
    .array(
      z.object({
        id: z.string().min(1).max(40),
        text: localizedTextSchema,
        options: z.array(wordingOptionSchema).max(100),
      }),
    )
    .min(1)
    .max(300),
});
export type LicensedWording = z.infer<typeof licensedWordingSchema>;

export type WordingResult = { ok: true; form: RenderableForm } | { ok: false; fields: Record<string, ValidationMessageKey> };

function sameSequence(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/**
 * The definition rendered with licensed text. Refused (field problems by path) when the wording's
 * questions, option codes or sections differ from the definition's, or a language it claims lacks a text.
 */
export function applyLicensedWording(definition: InstrumentDefinition, wording: LicensedWording): WordingResult {
  const fields: Record<string, ValidationMessageKey> = {};
  if (wording.formCode !== definition.formCode) fields.formCode = 'invalid';

  const expectedIds = definition.questions.map((question) => question.id);
  if (
    !sameSequence(
      wording.questions.map((question) => question.id),
      expectedIds,
    )
  ) {
    fields.questions = 'questionIdInvalid';
  }
  wording.questions.forEach((question, index) => {
    const expected = definition.questions.find((candidate) => candidate.id === question.id);
    if (!expected) {
      fields[`questions.${index}.id`] = 'questionIdInvalid';
      return;
    }
    const expectedCodes = (expected.options ?? []).map((option) => option.value);
    if (
      !sameSequence(
        question.options.map((option) => option.value),
        expectedCodes,
      )
    ) {
      fields[`questions.${index}.options`] = 'optionInvalid';
    }
  });
  if (
    wording.sections &&
    !sameSequence(
      wording.sections.map((section) => section.id),
      definition.sections.map((section) => section.id),
    )
  ) {
    fields.sections = 'sectionUnknown';
  }
  if (wording.languages.includes('es') && !hasSpanishEverywhere(wording)) fields.languages = 'spanishMissing';
  if (Object.keys(fields).length > 0) return { ok: false, fields };

  const questions = definition.questions.map((question) => {
    const text = wording.questions.find((candidate) => candidate.id === question.id);
    if (!text) return question;
    return {
      ...question,
      text: text.text,
      options: question.options?.map((option) => ({
        ...option,
        label: text.options.find((candidate) => candidate.value === option.value)?.label ?? option.label,
      })),
    };
  });
  const sections = definition.sections.map((section) => ({
    ...section,
    title: wording.sections?.find((candidate) => candidate.id === section.id)?.title ?? section.title,
  }));
  return {
    ok: true,
    form: renderable(definition, {
      languages: wording.languages,
      instructions: wording.instructions,
      sections,
      questions,
      credit: { en: wording.source },
    }),
  };
}

function hasSpanishEverywhere(wording: LicensedWording): boolean {
  const texts: LocalizedText[] = [
    ...(wording.instructions ? [wording.instructions] : []),
    ...(wording.sections ?? []).map((section) => section.title),
    ...wording.questions.flatMap((question) => [question.text, ...question.options.map((option) => option.label)]),
  ];
  return texts.every((text) => (text.es ?? '').trim().length > 0);
}

function renderable(
  definition: InstrumentDefinition,
  content: Pick<RenderableForm, 'languages' | 'instructions' | 'sections' | 'questions' | 'credit'>,
): RenderableForm {
  const languages: FormLanguage[] = content.languages;
  const form: RenderableForm = {
    kind: 'instrument',
    formCode: definition.formCode,
    customFormId: null,
    version: definition.version,
    title: definition.name,
    languages,
    sections: content.sections,
    questions: content.questions,
  };
  if (content.instructions) form.instructions = content.instructions;
  if (content.credit) form.credit = content.credit;
  if (!languages.includes('es')) form.languageNotice = definition.languageNotice ?? englishOnlyNotice;
  return form;
}

/**
 * The form a patient fills in: the shipped definition, or for a licensed instrument the instance's
 * imported wording. Wording is validated when imported, so a mismatch here is a programming error.
 */
export function instrumentForm(formCode: FormCode, wording?: LicensedWording): RenderableForm {
  const definition = instruments[formCode];
  if (wording) {
    const result = applyLicensedWording(definition, wording);
    if (!result.ok) throw new Error(`Stored wording for form ${formCode} no longer fits its structure`);
    return result.form;
  }
  return renderable(definition, {
    languages: definition.languages,
    instructions: definition.instructions,
    sections: definition.sections,
    questions: definition.questions,
    credit: definition.credit,
  });
}

export { wordingAvailability, type WordingAvailability } from './wording.js';
