import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { clinicMdy, formatClinicDateTime } from '@pathwell/contracts/clinic-time';
import {
  type CreateProcedureNote,
  type ProcedureNote,
  type ProcedureNoteKind,
  type ProcedureNoteList,
  type ProcedureNoteSummary,
  type UpdateProcedureNote,
  unfilledPlaceholders,
} from '@pathwell/contracts/procedure-notes';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { interventions, managedItems, patients, procedureNotes, procedureNoteTemplates, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient, visiblePatients } from '../patients/patient-visibility.service';
import { clinicTimeZoneFrom, isOn, readSettings } from '../settings/settings.service';
import {
  chooseTemplate,
  draftFor,
  isoToMdy,
  loadIntervention,
  personName,
  type LoadedIntervention,
} from './procedure-note-filling';
import { renderProcedureNotePdf } from './procedure-note-pdf';
import { requireRecordMedicines } from './procedure-note-medicines';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

/* A procedure note's life: opened from its intervention, edited, signed by its provider, amended, printed, listed. */

const AREA = 'Interventions';

/** Every note route needs the clinic to use procedure notes (instance setting `enableProcedureNote`). */
async function requireProcedureNotes(ctx: SignedInContext) {
  if (!isOn(await readSettings(ctx.db, ctx.instanceId), 'enableProcedureNote')) {
    throw new AppError('FORBIDDEN', 'featureOff');
  }
}

type NoteRow = typeof procedureNotes.$inferSelect;
const signer = alias(users, 'signer');
const provider = alias(users, 'provider');

async function versionsOf(db: Database, instanceId: string, interventionId: string) {
  return db
    .select({ note: procedureNotes, signerFirst: signer.firstName, signerLast: signer.lastName })
    .from(procedureNotes)
    .leftJoin(signer, eq(signer.id, procedureNotes.signedBy))
    .where(and(eq(procedureNotes.instanceId, instanceId), eq(procedureNotes.interventionId, interventionId)))
    .orderBy(desc(procedureNotes.version));
}

/** The note version with its intervention; 404 when not the clinic's or its patient is not visible. */
async function findNote(ctx: SignedInContext, db: Database, id: string) {
  const [note] = await db
    .select()
    .from(procedureNotes)
    .where(and(eq(procedureNotes.instanceId, ctx.instanceId), eq(procedureNotes.id, id)));
  if (!note) throw notFound('procedureNoteNotFound');
  const loaded = await loadIntervention(ctx, db, note.interventionId).catch(() => {
    throw notFound('procedureNoteNotFound');
  });
  return { note, loaded };
}

/** Only the provider named on the note signs it; a note without one is signed by the Doctor who takes it. */
function maySign(ctx: SignedInContext, note: NoteRow) {
  if (note.status !== 'draft') return false;
  if (ctx.actor.role === 'Staff') return false;
  if (note.providerId === null) return ctx.actor.role === 'Doctor';
  return note.providerId === ctx.actor.userId;
}

async function toNote(ctx: SignedInContext, db: Database, note: NoteRow, loaded: LoadedIntervention): Promise<ProcedureNote> {
  const versions = await versionsOf(db, ctx.instanceId, note.interventionId);
  const [template] = note.templateId
    ? await db
        .select({ name: procedureNoteTemplates.name })
        .from(procedureNoteTemplates)
        .where(and(eq(procedureNoteTemplates.instanceId, ctx.instanceId), eq(procedureNoteTemplates.id, note.templateId)))
    : [];
  const [who] = note.providerId
    ? await db.select({ first: users.firstName, last: users.lastName }).from(users).where(eq(users.id, note.providerId))
    : [];
  const current = versions.find((row) => row.note.id === note.id);
  return {
    id: note.id,
    version: note.version,
    status: note.status,
    signedAt: note.signedAt?.toISOString() ?? null,
    signedByName: current ? personName(current.signerFirst, current.signerLast) : null,
    updatedAt: note.updatedAt.toISOString(),
    interventionId: note.interventionId,
    patientId: note.patientId,
    patientName: `${loaded.patient.firstName} ${loaded.patient.lastName}`.trim(),
    kind: loaded.intervention.kind,
    procedure: loaded.itemName,
    performedOn: loaded.intervention.performedOn,
    templateId: note.templateId,
    templateName: template?.name ?? null,
    providerId: note.providerId,
    providerName: who ? personName(who.first, who.last) : null,
    body: note.body,
    createdAt: note.createdAt.toISOString(),
    canSign: maySign(ctx, note),
    versions: versions.map(({ note: row, signerFirst, signerLast }) => ({
      id: row.id,
      version: row.version,
      status: row.status,
      signedAt: row.signedAt?.toISOString() ?? null,
      signedByName: personName(signerFirst, signerLast),
      updatedAt: row.updatedAt.toISOString(),
    })),
  };
}

const noteActivity = (ctx: SignedInContext, action: 'Created' | 'Updated' | 'Viewed', note: NoteRow, description: string) =>
  staffActivity(ctx, AREA, action, { type: 'procedure note', id: note.id, description });

/**
 * Opens the intervention's note: the latest version when one exists (200), else a new draft v1 filled
 * from the template (201).
 */
export async function openNote(ctx: SignedInContext, input: CreateProcedureNote) {
  await requireProcedureNotes(ctx);
  return ctx.db.transaction(async (tx) => {
    const loaded = await loadIntervention(ctx, tx, input.interventionId);
    // One writer at a time per intervention, so two clicks do not make two version 1s.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`procedure-note:${input.interventionId}`}))`);
    const [latest] = await tx
      .select()
      .from(procedureNotes)
      .where(and(eq(procedureNotes.instanceId, ctx.instanceId), eq(procedureNotes.interventionId, input.interventionId)))
      .orderBy(desc(procedureNotes.version))
      .limit(1);
    if (latest) {
      if (input.templateId) await chooseTemplate(tx, ctx.instanceId, loaded, input.templateId);
      await recordActivity(tx, noteActivity(ctx, 'Viewed', latest, 'Procedure note opened'));
      return { created: false, note: await toNote(ctx, tx, latest, loaded) };
    }
    const { template, body } = await draftFor(tx, ctx.instanceId, loaded, input.templateId);
    const providerId = loaded.intervention.providerId ?? (ctx.actor.role === 'Doctor' ? ctx.actor.userId : null);
    const [row] = await tx
      .insert(procedureNotes)
      .values({
        instanceId: ctx.instanceId,
        patientId: loaded.intervention.patientId,
        interventionId: loaded.intervention.id,
        templateId: template?.id ?? null,
        providerId,
        version: 1,
        body,
        status: 'draft',
        createdBy: ctx.actor.userId,
      })
      .returning();
    await recordActivity(
      tx,
      noteActivity(
        ctx,
        'Created',
        row!,
        template ? `Procedure note drafted from "${template.name}"` : 'Procedure note drafted from the default layout',
      ),
    );
    return { created: true, note: await toNote(ctx, tx, row!, loaded) };
  });
}

export async function getNote(ctx: SignedInContext, id: string): Promise<ProcedureNote> {
  await requireProcedureNotes(ctx);
  return ctx.db.transaction(async (tx) => {
    const { note, loaded } = await findNote(ctx, tx, id);
    await recordActivity(tx, noteActivity(ctx, 'Viewed', note, `Procedure note version ${note.version} viewed`));
    return toNote(ctx, tx, note, loaded);
  });
}

export async function updateNote(ctx: SignedInContext, id: string, input: UpdateProcedureNote): Promise<ProcedureNote> {
  await requireProcedureNotes(ctx);
  return ctx.db.transaction(async (tx) => {
    const { note, loaded } = await findNote(ctx, tx, id);
    if (note.status !== 'draft') throw new AppError('CONFLICT', 'procedureNoteSigned');
    const [row] = await tx
      .update(procedureNotes)
      .set({ body: input.body, updatedAt: new Date() })
      .where(and(eq(procedureNotes.id, note.id), eq(procedureNotes.status, 'draft')))
      .returning();
    if (!row) throw new AppError('CONFLICT', 'procedureNoteSigned');
    await recordActivity(tx, noteActivity(ctx, 'Updated', row, `Procedure note version ${row.version} edited`));
    return toNote(ctx, tx, row, loaded);
  });
}

/** Signing freezes the version; the signed version it amends becomes superseded now, not before. */
export async function signNote(ctx: SignedInContext, id: string): Promise<ProcedureNote> {
  await requireProcedureNotes(ctx);
  return ctx.db.transaction(async (tx) => {
    const { note, loaded } = await findNote(ctx, tx, id);
    if (note.status !== 'draft') throw new AppError('CONFLICT', 'procedureNoteSigned');
    if (!maySign(ctx, note)) throw new AppError('FORBIDDEN', 'procedureNoteSignOwn');
    // The PDF printed "[to be completed by the provider]" under the signature (issue #24).
    const unfilled = unfilledPlaceholders(note.body);
    if (unfilled.length > 0) {
      throw new AppError('VALIDATION', 'procedureNoteUnfilled', {
        params: { names: unfilled.join(', ') },
        fields: { body: 'placeholdersUnfilled' },
      });
    }
    // A pump visit's medicines are its refills, from the pump medicines list, whose names may be the same.
    if (loaded.intervention.kind !== 'pump') {
      await requireRecordMedicines(tx, ctx.instanceId, loaded.intervention.medicines, note.body);
    }
    const now = new Date();
    const [row] = await tx
      .update(procedureNotes)
      .set({
        status: 'signed',
        signedAt: now,
        signedBy: ctx.actor.userId,
        providerId: note.providerId ?? ctx.actor.userId,
        updatedAt: now,
      })
      .where(and(eq(procedureNotes.id, note.id), eq(procedureNotes.status, 'draft')))
      .returning();
    if (!row) throw new AppError('CONFLICT', 'procedureNoteSigned');
    await tx
      .update(procedureNotes)
      .set({ status: 'superseded', updatedAt: now })
      .where(
        and(
          eq(procedureNotes.instanceId, ctx.instanceId),
          eq(procedureNotes.interventionId, note.interventionId),
          eq(procedureNotes.status, 'signed'),
          sql`${procedureNotes.version} < ${note.version}`,
        ),
      );
    await recordActivity(tx, noteActivity(ctx, 'Updated', row, `Procedure note version ${row.version} signed`));
    return toNote(ctx, tx, row, loaded);
  });
}

/** A new draft version copied from the latest signed one; only from the latest version. */
export async function amendNote(ctx: SignedInContext, id: string): Promise<ProcedureNote> {
  await requireProcedureNotes(ctx);
  return ctx.db.transaction(async (tx) => {
    const { note, loaded } = await findNote(ctx, tx, id);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`procedure-note:${note.interventionId}`}))`);
    if (note.status === 'draft') throw new AppError('CONFLICT', 'procedureNoteNotSigned');
    const [latest] = await tx
      .select({ version: procedureNotes.version })
      .from(procedureNotes)
      .where(and(eq(procedureNotes.instanceId, ctx.instanceId), eq(procedureNotes.interventionId, note.interventionId)))
      .orderBy(desc(procedureNotes.version))
      .limit(1);
    if (note.status !== 'signed' || (latest && latest.version !== note.version)) {
      throw new AppError('CONFLICT', 'procedureNoteNewerVersion');
    }
    const [row] = await tx
      .insert(procedureNotes)
      .values({
        instanceId: ctx.instanceId,
        patientId: note.patientId,
        interventionId: note.interventionId,
        templateId: note.templateId,
        providerId: note.providerId,
        version: note.version + 1,
        body: note.body,
        status: 'draft',
        createdBy: ctx.actor.userId,
      })
      .returning();
    await recordActivity(
      tx,
      noteActivity(ctx, 'Created', row!, `Procedure note amendment version ${row!.version} started from version ${note.version}`),
    );
    return toNote(ctx, tx, row!, loaded);
  });
}

export async function notePdf(ctx: SignedInContext, id: string) {
  await requireProcedureNotes(ctx);
  const { note, loaded } = await findNote(ctx, ctx.db, id);
  if (note.status === 'draft' || !note.signedAt) throw new AppError('CONFLICT', 'procedureNoteNotSigned');
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const timeZone = clinicTimeZoneFrom(settings);
  const [signedBy] = note.signedBy
    ? await ctx.db
        .select({ first: users.firstName, last: users.lastName, credentials: users.credentials })
        .from(users)
        .where(eq(users.id, note.signedBy))
    : [];
  const signerName = signedBy ? [personName(signedBy.first, signedBy.last), signedBy.credentials].filter(Boolean).join(', ') : '';
  const pdf = await renderProcedureNotePdf({
    clinicName: await clinicDisplayName(ctx.db, ctx.instanceId),
    title: loaded.itemName ? `Procedure note: ${loaded.itemName}` : 'Procedure note',
    patientName: `${loaded.patient.firstName} ${loaded.patient.lastName}`.trim(),
    dateOfBirth: isoToMdy(loaded.patient.dateOfBirth),
    datePerformed: isoToMdy(loaded.intervention.performedOn),
    body: note.body,
    version: note.version,
    superseded: note.status === 'superseded',
    signedAt: note.signedAt,
    signatureText: `Electronically signed by ${signerName} at ${formatClinicDateTime(note.signedAt, timeZone)} (${timeZone})`,
  });
  await recordActivity(ctx.db, noteActivity(ctx, 'Viewed', note, `Procedure note version ${note.version} PDF opened`));
  return {
    pdf,
    fileName: `procedure-note-${clinicMdy(note.signedAt, timeZone).replaceAll('/', '-')}-v${note.version}.pdf`,
  };
}

// ---- lists -----------------------------------------------------------------------------------------------

const summaryColumns = {
  note: procedureNotes,
  kind: interventions.kind,
  performedOn: interventions.performedOn,
  procedure: managedItems.name,
  patientFirst: patients.firstName,
  patientLast: patients.lastName,
  providerFirst: provider.firstName,
  providerLast: provider.lastName,
};

type SummaryRow = {
  note: NoteRow;
  kind: ProcedureNoteKind;
  performedOn: string;
  procedure: string | null;
  patientFirst: string;
  patientLast: string;
  providerFirst: string | null;
  providerLast: string | null;
};

function toSummary(row: SummaryRow): ProcedureNoteSummary {
  return {
    id: row.note.id,
    interventionId: row.note.interventionId,
    patientId: row.note.patientId,
    patientName: `${row.patientFirst} ${row.patientLast}`.trim(),
    kind: row.kind,
    procedure: row.procedure,
    performedOn: row.performedOn,
    version: row.note.version,
    status: row.note.status,
    providerId: row.note.providerId,
    providerName: personName(row.providerFirst, row.providerLast),
    signedAt: row.note.signedAt?.toISOString() ?? null,
    updatedAt: row.note.updatedAt.toISOString(),
  };
}

function summaryQuery(db: Database) {
  return db
    .select(summaryColumns)
    .from(procedureNotes)
    .innerJoin(interventions, eq(interventions.id, procedureNotes.interventionId))
    .innerJoin(patients, eq(patients.id, procedureNotes.patientId))
    .leftJoin(managedItems, eq(managedItems.id, interventions.itemId))
    .leftJoin(provider, eq(provider.id, procedureNotes.providerId));
}

/** The patient dashboard's list: the latest version of each intervention's note, newest procedure first. */
export async function patientNotes(ctx: SignedInContext, patientId: string): Promise<ProcedureNoteList> {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  if (!isOn(await readSettings(ctx.db, ctx.instanceId), 'enableProcedureNote')) return { enabled: false, data: [] };
  const rows = await summaryQuery(ctx.db)
    .where(
      and(
        eq(procedureNotes.instanceId, ctx.instanceId),
        eq(procedureNotes.patientId, patient.id),
        isNull(interventions.deletedAt),
        sql`${procedureNotes.version} = (select max(n.version) from procedure_notes n where n.instance_id = ${procedureNotes.instanceId} and n.intervention_id = ${procedureNotes.interventionId})`,
      ),
    )
    .orderBy(desc(interventions.performedOn), desc(procedureNotes.updatedAt))
    .limit(200);
  await recordActivity(
    ctx.db,
    staffActivity(ctx, AREA, 'Viewed', { type: 'patient', id: patient.id, description: 'Procedure notes listed' }),
  );
  return { enabled: true, data: rows.map(toSummary) };
}

/**
 * Unsigned drafts: a Doctor's own (the notes naming them); Admin, Staff and System Manager see every
 * draft of the clinic, to chase them.
 */
export async function todoNotes(ctx: SignedInContext): Promise<ProcedureNoteList> {
  if (!isOn(await readSettings(ctx.db, ctx.instanceId), 'enableProcedureNote')) return { enabled: false, data: [] };
  const rows = await summaryQuery(ctx.db)
    .where(
      and(
        eq(procedureNotes.instanceId, ctx.instanceId),
        eq(procedureNotes.status, 'draft'),
        isNull(interventions.deletedAt),
        ctx.actor.role === 'Doctor' ? eq(procedureNotes.providerId, ctx.actor.userId) : undefined,
        visiblePatients(ctx, [ctx.instanceId]),
      ),
    )
    .orderBy(asc(interventions.performedOn), asc(procedureNotes.createdAt))
    .limit(200);
  return { enabled: true, data: rows.map(toSummary) };
}
