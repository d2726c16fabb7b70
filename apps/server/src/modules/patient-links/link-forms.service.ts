import { and, eq } from 'drizzle-orm';
import { type Answers, type FormLanguage, type LocalizedText, type RenderableForm, type Scores } from '@pathwell/contracts/forms';
import { keepVisibleAnswers, visibleQuestions } from '@pathwell/contracts/form-logic';
import {
  getInstrument,
  headlineOf,
  instrumentForm,
  isFormCode,
  scoreForm,
  wordingAvailability,
  type LicensedWording,
} from '@pathwell/instruments';
import type { Database } from '../../db/client';
import { customForms, customFormVersions, instrumentWordings } from '../../db/schema';
import { AppError, fieldError } from '../../lib/app-error';
import { linkNotFound, type LinkRow } from '../patient-contact/link-access.service';

/*
 * The form behind a form link, and what a submission stores: loading the clinic's wording or custom
 * version, the languages it may be answered in, and the server's scoring. The intake flow uses the same.
 */

// ---- forms -----------------------------------------------------------------------------------------

export interface LoadedForm {
  form: RenderableForm;
  title: LocalizedText;
  customFormVersionId: string | null;
  /**
   * False for a licensed instrument whose wording the clinic has not imported (decision 0061): its
   * neutral labels are not the instrument, so it is neither shown to the patient nor scored.
   */
  available: boolean;
}

export function instrumentTitle(formCode: number): LocalizedText {
  if (!isFormCode(formCode)) throw new Error(`Unknown form code ${formCode}`);
  return getInstrument(formCode).name;
}

/** The form as the patient sees it now: the clinic's licensed wording when imported, the current custom version. */
export async function loadForm(
  db: Database,
  link: Pick<LinkRow, 'instanceId' | 'formCode' | 'customFormId'>,
): Promise<LoadedForm> {
  if (link.formCode !== null) {
    const code = link.formCode;
    if (!isFormCode(code)) throw new Error(`Unknown form code ${code}`);
    const [wording] = await db
      .select({ definition: instrumentWordings.definition })
      .from(instrumentWordings)
      .where(and(eq(instrumentWordings.instanceId, link.instanceId), eq(instrumentWordings.formCode, code)));
    // Wording is validated against the structure when a System Manager imports it.
    const form = instrumentForm(code, wording ? (wording.definition as LicensedWording) : undefined);
    const { available } = wordingAvailability(getInstrument(code), wording ? form : null);
    return { form, title: getInstrument(code).name, customFormVersionId: null, available };
  }
  const [row] = await db
    .select({
      id: customForms.id,
      currentVersion: customForms.currentVersion,
      versionId: customFormVersions.id,
      content: customFormVersions.content,
    })
    .from(customForms)
    .innerJoin(
      customFormVersions,
      and(eq(customFormVersions.customFormId, customForms.id), eq(customFormVersions.version, customForms.currentVersion)),
    )
    .where(and(eq(customForms.id, link.customFormId!), eq(customForms.instanceId, link.instanceId)));
  if (!row) throw linkNotFound();
  return {
    form: { ...row.content, kind: 'custom', formCode: null, customFormId: row.id, version: String(row.currentVersion) },
    title: row.content.title,
    customFormVersionId: row.versionId,
    available: true,
  };
}

/** A link to a form the clinic cannot give (decision 0061) takes no answers: the clinic contacts the patient instead. */
export function requireAvailable(loaded: LoadedForm) {
  if (!loaded.available) throw new AppError('CONFLICT', 'formWordingNotLoaded');
}

export const titleIn = (title: LocalizedText, language: FormLanguage) => (language === 'es' && title.es ? title.es : title.en);

export function requireLanguage(form: RenderableForm, language: FormLanguage) {
  if (!form.languages.includes(language)) throw fieldError('language', 'invalid', 'formLanguageMissing');
}

/** Instrument answers are numeric codes; anything else cannot reach the scoring. */
function numericAnswers(answers: Answers): Record<string, number | null> {
  const numeric: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (typeof value === 'number') numeric[key] = value;
    else if (value === null) numeric[key] = null;
  }
  return numeric;
}

/** A custom screener's total: the chosen options' points, when the form gives any option points at all. */
export function customTotal(form: RenderableForm, answers: Answers): number | null {
  const scored = form.questions.some((question) => question.options?.some((option) => option.score !== undefined));
  if (!scored) return null;
  let total = 0;
  for (const question of visibleQuestions(form, answers)) {
    const answer = answers[question.id];
    if (!question.options || answer === undefined || answer === null) continue;
    const chosen = Array.isArray(answer) ? answer.map(String) : [String(answer as string | number)];
    for (const option of question.options) {
      if (option.score !== undefined && chosen.includes(String(option.value))) total += option.score;
    }
  }
  return total;
}

/**
 * What a submission stores: the answers to visible questions and the server's scores (an instrument's
 * own scoring and headline, or a custom form's points total). Validate with `formProblems` first.
 */
export function scoredAnswers(form: RenderableForm, formCode: number | null, given: Answers) {
  const answers = keepVisibleAnswers(form, given);
  let scores: Scores = {};
  let headlineScore: number | null = null;
  let band: number | null = null;
  if (formCode !== null && isFormCode(formCode)) {
    scores = scoreForm(formCode, numericAnswers(answers));
    const headline = headlineOf(formCode, scores);
    headlineScore = headline.score;
    band = headline.band;
  } else {
    headlineScore = customTotal(form, answers);
    if (headlineScore !== null) scores = { total: headlineScore };
  }
  return { answers, scores, headlineScore, band };
}
