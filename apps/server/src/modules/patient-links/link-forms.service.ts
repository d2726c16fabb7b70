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
import type { SubmitLink } from '@pathwell/contracts/patient-links';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { customForms, customFormVersions, formResponses, instrumentWordings } from '../../db/schema';
import { AppError, fieldError } from '../../lib/app-error';
import { recordActivity } from '../audit/audit.service';
import { recordCriticalFindings } from '../critical-findings/critical-findings.service';
import { linkNotFound, patientActivity, type LinkRow } from '../patient-contact/link-access.service';

/*
 * The form behind a form link, and what a submission stores: loading the clinic's wording or custom
 * version, the languages it may be answered in, the server's scoring and the stored response. The
 * intake flow uses the same.
 */

// ---- forms -----------------------------------------------------------------------------------------

interface LoadedForm {
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
function customTotal(form: RenderableForm, answers: Answers): number | null {
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
function scoredAnswers(form: RenderableForm, formCode: number | null, given: Answers) {
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

/**
 * Stores a submitted form as its response, the same for a form link and a form inside the intake
 * (decision 0016): the server's scores, once per idempotency key (the caller checked for a retry
 * first), the critical findings of decision 0058 and the submission in the audit log, all in the
 * caller's transaction. Null when another request took the key meanwhile: nothing is stored and each
 * flow answers that its own way. Validate with `formProblems` first.
 */
export async function storeSubmittedResponse(
  ctx: ServiceContext,
  tx: Database,
  submission: {
    link: Pick<LinkRow, 'id' | 'instanceId' | 'patientId' | 'appointmentId'>;
    form: RenderableForm;
    formCode: number | null;
    customFormVersionId: string | null;
    input: SubmitLink;
    /** Where the patient answered, as the audit entry says it ("through a link", "in the intake"). */
    via: string;
  },
): Promise<{ id: string; crisisResources: boolean } | null> {
  const { link, form, formCode, customFormVersionId, input } = submission;
  const { answers, scores, headlineScore, band } = scoredAnswers(form, formCode, input.answers);
  const [inserted] = await tx
    .insert(formResponses)
    .values({
      instanceId: link.instanceId,
      patientId: link.patientId,
      appointmentId: link.appointmentId,
      linkId: link.id,
      formCode,
      customFormVersionId,
      version: form.version,
      language: input.language,
      answers,
      scores,
      headlineScore,
      band,
      idempotencyKey: input.idempotencyKey,
    })
    .onConflictDoNothing({ target: [formResponses.instanceId, formResponses.idempotencyKey] })
    .returning({ id: formResponses.id });
  if (!inserted) return null;
  const crisisResources = await recordCriticalFindings(
    ctx,
    tx,
    {
      id: inserted.id,
      instanceId: link.instanceId,
      patientId: link.patientId,
      appointmentId: link.appointmentId,
      formCode,
    },
    answers,
  );
  await recordActivity(
    tx,
    patientActivity(ctx, link, 'Form Submission', 'Created', {
      type: 'form response',
      id: inserted.id,
      description: `Patient ${link.patientId} submitted ${form.title.en} ${submission.via}`,
    }),
  );
  return { id: inserted.id, crisisResources };
}
