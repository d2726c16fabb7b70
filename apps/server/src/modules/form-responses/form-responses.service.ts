import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { CriticalFinding } from '@pathwell/contracts/critical-findings';
import type { FormContent, RenderableForm } from '@pathwell/contracts/forms';
import type { FormResponseDetail, FormResponseSummary } from '@pathwell/contracts/patient-links';
import {
  FORM_RESPONSE_LIST_LIMIT,
  type AssignedPro,
  type FormScoreSeries,
  type InstrumentSummary,
  type PatientFormResponses,
  type UnfilledForm,
  type UpdateAssignedPro,
} from '@pathwell/contracts/form-responses';
import {
  applyLicensedWording,
  getInstrument,
  instrumentForm,
  isFormCode,
  licensedWordingSchema,
  type FormCode,
  type InstrumentDefinition,
} from '@pathwell/instruments';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointmentProSets, customFormVersions, formResponses, instrumentWordings, patients } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findingsOfResponses } from '../critical-findings/critical-findings.service';
import { findVisibleAppointment } from '../appointments/appointments.service';
import { requireFormsWorded } from './wording-availability.service';
import { visiblePatients } from '../patients/patient-visibility.service';
import { readTypedSettings } from '../settings/settings.service';

const ALL_FORM_CODES = Array.from({ length: 15 }, (_, index) => (index + 1) as FormCode);

const fullName = (row: { firstName: string; middleName: string | null; lastName: string }) =>
  [row.firstName, row.middleName, row.lastName].filter(Boolean).join(' ');

// ---- the form as answered -------------------------------------------------------------------------

function definitionOf(formCode: number): InstrumentDefinition {
  if (!isFormCode(formCode)) throw new Error(`Unknown outcome form ${formCode}`);
  return getInstrument(formCode);
}

/** Headline score descriptor of an instrument: tells whether a rise is an improvement. */
function headlineDirection(definition: InstrumentDefinition): boolean | null {
  return definition.scores.find((score) => score.key === definition.headline.key)?.higherIsBetter ?? null;
}

async function licensedWordingOf(db: Database, instanceId: string, formCode: number): Promise<unknown> {
  const [row] = await db
    .select({ definition: instrumentWordings.definition })
    .from(instrumentWordings)
    .where(and(eq(instrumentWordings.instanceId, instanceId), eq(instrumentWordings.formCode, formCode)));
  return row?.definition ?? null;
}

/**
 * An instrument as this clinic shows it: the shipped form, or, for the four licensed instruments, the
 * wording the clinic's System Manager imported. A stored wording that no longer fits the structure (an
 * instrument update) falls back to the neutral labels rather than breaking every result page.
 */
export async function clinicInstrumentForm(db: Database, instanceId: string, formCode: number): Promise<RenderableForm> {
  const definition = definitionOf(formCode);
  const base = instrumentForm(definition.formCode);
  if (definition.wording !== 'licensed') return base;
  const stored = await licensedWordingOf(db, instanceId, formCode);
  if (!stored) return base;
  const parsed = licensedWordingSchema.safeParse(stored);
  if (!parsed.success) return base;
  const applied = applyLicensedWording(definition, parsed.data);
  return applied.ok ? applied.form : base;
}

export function customRenderableForm(content: FormContent, customFormId: string, version: number): RenderableForm {
  return { ...content, kind: 'custom', formCode: null, customFormId, version: String(version) };
}

// ---- one response ---------------------------------------------------------------------------------

const responseColumns = {
  response: formResponses,
  customFormId: customFormVersions.customFormId,
  customVersion: customFormVersions.version,
  customContent: customFormVersions.content,
};

type ResponseRow = {
  response: typeof formResponses.$inferSelect;
  customFormId: string | null;
  customVersion: number | null;
  customContent: FormContent | null;
};

const titleOf = (row: ResponseRow): string =>
  row.response.formCode !== null ? definitionOf(row.response.formCode).name.en : (row.customContent?.title.en ?? '');

function toSummary(row: ResponseRow, findings: Map<string, CriticalFinding[]>): FormResponseSummary {
  const { response } = row;
  // A response answered without its wording stores no score and says why (decision 0067).
  return {
    id: response.id,
    patientId: response.patientId,
    appointmentId: response.appointmentId,
    kind: response.formCode !== null ? 'instrument' : 'custom',
    formCode: response.formCode,
    customFormId: row.customFormId,
    formTitle: titleOf(row),
    version: response.version,
    language: response.language,
    headlineScore: response.headlineScore,
    band: response.band,
    ...(response.notScored ? { notScored: response.notScored } : {}),
    submittedAt: response.submittedAt.toISOString(),
    criticalFindings: findings.get(response.id) ?? [],
  };
}

/**
 * A response of a patient the actor may see, with the patient's name and its custom form version.
 * Another clinic's response, or a Doctor's colleague's patient, is simply not found.
 */
export async function findVisibleResponse(db: Database, ctx: SignedInContext, responseId: string) {
  const [row] = await db
    .select({
      ...responseColumns,
      firstName: patients.firstName,
      middleName: patients.middleName,
      lastName: patients.lastName,
    })
    .from(formResponses)
    .innerJoin(patients, eq(patients.id, formResponses.patientId))
    .leftJoin(customFormVersions, eq(customFormVersions.id, formResponses.customFormVersionId))
    .where(and(eq(formResponses.id, responseId), eq(formResponses.instanceId, ctx.instanceId), visiblePatients(ctx)));
  if (!row) throw notFound('formResponseNotFound');
  return row;
}

/** The same patient's latest response to the same form (same instrument, or any version of the same custom form) before this one. */
async function previousResponse(
  db: Database,
  ctx: SignedInContext,
  row: Pick<ResponseRow, 'response' | 'customFormId'>,
): Promise<ResponseRow | null> {
  const { response } = row;
  const sameForm =
    response.formCode !== null
      ? eq(formResponses.formCode, response.formCode)
      : eq(customFormVersions.customFormId, row.customFormId!);
  const [previous] = await db
    .select(responseColumns)
    .from(formResponses)
    .leftJoin(customFormVersions, eq(customFormVersions.id, formResponses.customFormVersionId))
    .where(
      and(
        eq(formResponses.instanceId, ctx.instanceId),
        eq(formResponses.patientId, response.patientId),
        sameForm,
        // The one before that carries a score: a response answered without its wording compares with nothing.
        isNull(formResponses.notScored),
        or(
          lt(formResponses.submittedAt, response.submittedAt),
          and(eq(formResponses.submittedAt, response.submittedAt), lt(formResponses.id, response.id)),
        ),
      ),
    )
    .orderBy(desc(formResponses.submittedAt), desc(formResponses.id))
    .limit(1);
  return previous ?? null;
}

/** Scores are stored with four decimals; rounding the difference keeps 42.2 − 32.2 from missing an MCID of 10. */
const roundChange = (value: number) => Math.round(value * 10_000) / 10_000;

export function compareHeadlines(
  now: number | null,
  then: number | null,
  direction: { higherIsBetter: boolean | null; mcidPoints: number | null },
): { change: number | null; better: boolean | null; meetsMcid: boolean | null } {
  if (now === null || then === null) return { change: null, better: null, meetsMcid: null };
  const change = roundChange(now - then);
  const better = change === 0 || direction.higherIsBetter === null ? null : change > 0 === direction.higherIsBetter;
  const meetsMcid = direction.mcidPoints === null ? null : Math.abs(change) >= direction.mcidPoints;
  return { change, better, meetsMcid };
}

/**
 * The same patient's previous response to the same form and how the headline moved since: the
 * comparison of the result page, also read by the intake one-pager.
 */
export async function comparedWithPrevious(
  db: Database,
  ctx: SignedInContext,
  row: Pick<ResponseRow, 'response' | 'customFormId'>,
): Promise<FormResponseDetail['previous']> {
  const previous = await previousResponse(db, ctx, row);
  if (!previous) return null;
  const definition = row.response.formCode !== null ? definitionOf(row.response.formCode) : null;
  return {
    id: previous.response.id,
    submittedAt: previous.response.submittedAt.toISOString(),
    scores: previous.response.scores,
    headlineScore: previous.response.headlineScore,
    ...compareHeadlines(row.response.headlineScore, previous.response.headlineScore, {
      higherIsBetter: definition ? headlineDirection(definition) : null,
      mcidPoints: definition?.mcid?.points ?? null,
    }),
  };
}

export async function responseDetail(ctx: SignedInContext, responseId: string): Promise<FormResponseDetail> {
  return ctx.db.transaction(async (tx) => {
    const row = await findVisibleResponse(tx, ctx, responseId);
    const { response } = row;
    const definition = response.formCode !== null ? definitionOf(response.formCode) : null;
    const form = definition
      ? await clinicInstrumentForm(tx, ctx.instanceId, definition.formCode)
      : customRenderableForm(row.customContent!, row.customFormId!, row.customVersion!);
    const previous = await comparedWithPrevious(tx, ctx, row);

    await recordActivity(
      tx,
      staffActivity(ctx, 'Form Submission', 'Viewed', {
        type: 'form response',
        id: response.id,
        description: `Viewed form response ${response.id} of patient ${response.patientId}`,
      }),
    );

    const findings = await findingsOfResponses(tx, ctx.instanceId, [response.id]);
    const summary = toSummary(row, findings);
    return {
      ...summary,
      patientName: fullName(row),
      form,
      answers: response.answers,
      // No score, and no comparison, for answers given on neutral labels.
      scores: summary.notScored ? {} : response.scores,
      previous: summary.notScored ? null : previous,
    };
  });
}

// ---- one patient's responses ------------------------------------------------------------------------

export async function patientResponses(ctx: SignedInContext, patientId: string): Promise<PatientFormResponses> {
  return ctx.db.transaction(async (tx) => {
    const [patient] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.id, patientId), visiblePatients(ctx)));
    if (!patient) throw notFound('patientNotFound');

    const rows = await tx
      .select(responseColumns)
      .from(formResponses)
      .leftJoin(customFormVersions, eq(customFormVersions.id, formResponses.customFormVersionId))
      .where(and(eq(formResponses.instanceId, ctx.instanceId), eq(formResponses.patientId, patientId)))
      .orderBy(desc(formResponses.submittedAt), desc(formResponses.id))
      .limit(FORM_RESPONSE_LIST_LIMIT);

    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patientId,
        description: `Viewed the questionnaire results of patient ${patientId}`,
      }),
    );

    const findings = await findingsOfResponses(
      tx,
      ctx.instanceId,
      rows.map((row) => row.response.id),
    );
    return { data: rows.map((row) => toSummary(row, findings)), series: seriesOf(rows) };
  });
}

/** Each form's headline over time, oldest first; responses with no headline (not scorable) leave a gap. */
function seriesOf(newestFirst: ResponseRow[]): FormScoreSeries[] {
  const byForm = new Map<string, FormScoreSeries>();
  for (const row of [...newestFirst].reverse()) {
    const { response } = row;
    const key = response.formCode !== null ? `form:${response.formCode}` : `custom:${row.customFormId}`;
    let series = byForm.get(key);
    if (!series) {
      const definition = response.formCode !== null ? definitionOf(response.formCode) : null;
      series = {
        formCode: response.formCode,
        customFormId: row.customFormId,
        title: titleOf(row),
        maximum: definition?.headline.maximum ?? null,
        higherIsBetter: definition ? headlineDirection(definition) : null,
        points: [],
      };
      byForm.set(key, series);
    }
    // The newest version's title names a custom form that was renamed.
    if (response.formCode === null) series.title = titleOf(row);
    if (response.headlineScore !== null)
      series.points.push({
        responseId: response.id,
        submittedAt: response.submittedAt.toISOString(),
        score: response.headlineScore,
      });
  }
  return [...byForm.values()];
}

// ---- assigned PROs ----------------------------------------------------------------------------------

/** The clinic's applicable outcome forms (instance setting); custom form ids there are not PROs. */
async function applicableFormCodes(db: Database, instanceId: string): Promise<number[]> {
  const { applicableForms } = await readTypedSettings(db, instanceId);
  return applicableForms.filter((id): id is number => typeof id === 'number' && isFormCode(id));
}

/** The appointment's outcome forms: the staff's choice when made, else the clinic's applicable forms. */
export async function appointmentFormCodes(db: Database, instanceId: string, appointmentId: string) {
  const [set] = await db
    .select({ formCodes: appointmentProSets.formCodes })
    .from(appointmentProSets)
    .where(and(eq(appointmentProSets.appointmentId, appointmentId), eq(appointmentProSets.instanceId, instanceId)));
  if (set) return { formCodes: set.formCodes, isDefault: false };
  return { formCodes: await applicableFormCodes(db, instanceId), isDefault: true };
}
const assignedFormCodes = (db: Database, ctx: SignedInContext, appointmentId: string) =>
  appointmentFormCodes(db, ctx.instanceId, appointmentId);

export async function assignedPro(ctx: SignedInContext, appointmentId: string): Promise<AssignedPro> {
  await findVisibleAppointment(ctx.db, ctx, appointmentId);
  return { appointmentId, ...(await assignedFormCodes(ctx.db, ctx, appointmentId)) };
}

export async function updateAssignedPro(ctx: SignedInContext, input: UpdateAssignedPro): Promise<AssignedPro> {
  return ctx.db.transaction(async (tx) => {
    await findVisibleAppointment(tx, ctx, input.appointmentId);
    await requireFormsWorded(tx, ctx.instanceId, input.formCodes, (index) => `formCodes.${index}`);
    await tx
      .insert(appointmentProSets)
      .values({
        appointmentId: input.appointmentId,
        instanceId: ctx.instanceId,
        formCodes: input.formCodes,
        updatedBy: ctx.actor.userId,
      })
      .onConflictDoUpdate({
        target: appointmentProSets.appointmentId,
        set: { formCodes: input.formCodes, updatedBy: ctx.actor.userId, updatedAt: sql`now()` },
      });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Appointments', 'Updated', {
        type: 'appointment',
        id: input.appointmentId,
        description: `Assigned outcome forms [${input.formCodes.join(', ')}] to appointment ${input.appointmentId}`,
      }),
    );
    return { appointmentId: input.appointmentId, formCodes: input.formCodes, isDefault: false };
  });
}

/** The assigned outcome forms not yet answered for this appointment, in the assigned order. */
export async function unfilledForms(ctx: SignedInContext, appointmentId: string): Promise<UnfilledForm[]> {
  await findVisibleAppointment(ctx.db, ctx, appointmentId);
  const { formCodes } = await assignedFormCodes(ctx.db, ctx, appointmentId);
  if (formCodes.length === 0) return [];
  const answered = await ctx.db
    .selectDistinct({ formCode: formResponses.formCode })
    .from(formResponses)
    .where(
      and(
        eq(formResponses.instanceId, ctx.instanceId),
        eq(formResponses.appointmentId, appointmentId),
        inArray(formResponses.formCode, formCodes),
      ),
    );
  const done = new Set(answered.map((row) => row.formCode));
  return formCodes
    .filter((code) => !done.has(code) && isFormCode(code))
    .map((code) => {
      const definition = definitionOf(code);
      return { formCode: code, title: definition.name.en, slug: definition.slug };
    });
}

// ---- instrument catalogue and licensed wording ------------------------------------------------------

export async function listInstruments(ctx: SignedInContext): Promise<InstrumentSummary[]> {
  const imported = await ctx.db
    .select({ formCode: instrumentWordings.formCode, importedAt: instrumentWordings.importedAt })
    .from(instrumentWordings)
    .where(eq(instrumentWordings.instanceId, ctx.instanceId))
    .orderBy(asc(instrumentWordings.formCode));
  const importedAt = new Map(imported.map((row) => [row.formCode, row.importedAt]));
  return ALL_FORM_CODES.map((code) => {
    const definition = getInstrument(code);
    const at = importedAt.get(code);
    return {
      formCode: code,
      slug: definition.slug,
      name: definition.name.en,
      version: definition.version,
      wording: definition.wording,
      languages: definition.languages,
      importedForClinic: at !== undefined,
      importedAt: at ? at.toISOString() : null,
    };
  });
}

export async function previewInstrument(ctx: SignedInContext, formCode: number): Promise<RenderableForm> {
  return clinicInstrumentForm(ctx.db, ctx.instanceId, formCode);
}

/**
 * Stores a clinic's licensed wording of ODI, NDI, PROMIS Global-10 or SOAPP-R once it fits the
 * shipped structure exactly (same item ids, same option codes): scoring never depends on the wording.
 */
export async function importWording(ctx: SignedInContext, formCode: number, wording: unknown): Promise<InstrumentSummary> {
  const definition = definitionOf(formCode);
  if (definition.wording !== 'licensed')
    throw new AppError('VALIDATION', 'wordingShipped', { fields: { formCode: 'wordingShipped' } });
  const parsed = licensedWordingSchema.safeParse(wording);
  if (!parsed.success) {
    const fields: Record<string, 'invalid'> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join('.') || '_'] ??= 'invalid';
    throw new AppError('VALIDATION', 'wordingInvalid', { fields });
  }
  const applied = applyLicensedWording(definition, parsed.data);
  if (!applied.ok) {
    throw new AppError('VALIDATION', 'wordingMismatch', { fields: applied.fields });
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(instrumentWordings)
      .values({ instanceId: ctx.instanceId, formCode, definition: parsed.data, importedBy: ctx.actor.userId })
      .onConflictDoUpdate({
        target: [instrumentWordings.instanceId, instrumentWordings.formCode],
        set: { definition: parsed.data, importedBy: ctx.actor.userId, importedAt: sql`now()` },
      });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Admin Configuration', 'Updated', {
        type: 'instrument wording',
        id: String(formCode),
        description: `Imported the licensed wording of ${definition.name.en}`,
      }),
    );
  });
  return (await listInstruments(ctx)).find((item) => item.formCode === formCode)!;
}

export async function removeWording(ctx: SignedInContext, formCode: number): Promise<void> {
  const definition = definitionOf(formCode);
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(instrumentWordings)
      .where(and(eq(instrumentWordings.instanceId, ctx.instanceId), eq(instrumentWordings.formCode, formCode)))
      .returning({ id: instrumentWordings.id });
    if (removed.length === 0) throw notFound('importedWordingNotFound');
    await recordActivity(
      tx,
      staffActivity(ctx, 'Admin Configuration', 'Deleted', {
        type: 'instrument wording',
        id: String(formCode),
        description: `Removed the licensed wording of ${definition.name.en}`,
      }),
    );
  });
}
