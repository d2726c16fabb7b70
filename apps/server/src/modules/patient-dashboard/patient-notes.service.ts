import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PatientNote } from '@pathwell/contracts/patient-dashboard';
import type { SignedInContext } from '../../context';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import type { Database } from '../../db/client';
import { reusableQuery } from '../../db/reusable-query';
import { patientNotes, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { personName } from './dashboard-appointments';

const author = alias(users, 'author');

/** Admins (and System Managers, who hold every Admin power) may change anyone's note; others only their own. */
const mayEditNote = (ctx: SignedInContext, authorUserId: string | null) =>
  authorUserId === ctx.actor.userId || ctx.actor.role === 'Admin' || ctx.actor.role === 'SystemManager';

type NoteRow = typeof patientNotes.$inferSelect & { authorFirstName: string | null; authorLastName: string | null };

const toNote = (ctx: SignedInContext, row: NoteRow): PatientNote => ({
  id: row.id,
  body: row.body,
  author: row.authorUserId ? { id: row.authorUserId, name: personName(row.authorFirstName, row.authorLastName) } : null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  canEdit: mayEditNote(ctx, row.authorUserId),
});

const notesOfPatient = reusableQuery('patient_dashboard_notes', (db) =>
  db
    .select({ note: patientNotes, authorFirstName: author.firstName, authorLastName: author.lastName })
    .from(patientNotes)
    .leftJoin(author, eq(author.id, patientNotes.authorUserId))
    .where(
      and(eq(patientNotes.patientId, sql.placeholder('patientId')), eq(patientNotes.instanceId, sql.placeholder('instanceId'))),
    )
    .orderBy(desc(patientNotes.createdAt), desc(patientNotes.id)),
);

export async function notesOf(db: Database, ctx: SignedInContext, patientId: string): Promise<PatientNote[]> {
  const rows = await notesOfPatient(db, { patientId, instanceId: ctx.instanceId });
  return rows.map((row) =>
    toNote(ctx, { ...row.note, authorFirstName: row.authorFirstName, authorLastName: row.authorLastName }),
  );
}

export async function listNotes(ctx: SignedInContext, patientId: string): Promise<PatientNote[]> {
  return ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, patientId);
    const notes = await notesOf(tx, ctx, patientId);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Viewed', {
        type: 'patient',
        id: patientId,
        description: `Viewed the notes of patient ${patientId}`,
      }),
    );
    return notes;
  });
}

async function noteWithAuthor(db: Database, ctx: SignedInContext, noteId: string): Promise<PatientNote> {
  const [row] = await db
    .select({ note: patientNotes, authorFirstName: author.firstName, authorLastName: author.lastName })
    .from(patientNotes)
    .leftJoin(author, eq(author.id, patientNotes.authorUserId))
    .where(eq(patientNotes.id, noteId));
  if (!row) throw notFound('noteNotFound');
  return toNote(ctx, { ...row.note, authorFirstName: row.authorFirstName, authorLastName: row.authorLastName });
}

export async function createNote(ctx: SignedInContext, patientId: string, input: { body: string }): Promise<PatientNote> {
  return ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, patientId);
    const [created] = await tx
      .insert(patientNotes)
      .values({ instanceId: ctx.instanceId, patientId, authorUserId: ctx.actor.userId, body: input.body })
      .returning({ id: patientNotes.id });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Created', {
        type: 'patient note',
        id: created!.id,
        description: `Added a note to patient ${patientId}`,
      }),
    );
    return noteWithAuthor(tx, ctx, created!.id);
  });
}

/** The note of this patient in this clinic that the actor may change: 404 when unseen, 403 when not theirs. */
async function editableNote(db: Database, ctx: SignedInContext, patientId: string, noteId: string) {
  await findVisiblePatient(ctx, db, patientId);
  const [note] = await db
    .select({ id: patientNotes.id, authorUserId: patientNotes.authorUserId })
    .from(patientNotes)
    .where(and(eq(patientNotes.id, noteId), eq(patientNotes.patientId, patientId), eq(patientNotes.instanceId, ctx.instanceId)));
  if (!note) throw notFound('noteNotFound');
  if (!mayEditNote(ctx, note.authorUserId)) throw new AppError('FORBIDDEN', 'noteAuthorOnly');
  return note;
}

export async function updateNote(
  ctx: SignedInContext,
  patientId: string,
  noteId: string,
  input: { body: string },
): Promise<PatientNote> {
  return ctx.db.transaction(async (tx) => {
    await editableNote(tx, ctx, patientId, noteId);
    await tx.update(patientNotes).set({ body: input.body, updatedAt: new Date() }).where(eq(patientNotes.id, noteId));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Updated', {
        type: 'patient note',
        id: noteId,
        description: `Changed a note of patient ${patientId}`,
      }),
    );
    return noteWithAuthor(tx, ctx, noteId);
  });
}

export async function deleteNote(ctx: SignedInContext, patientId: string, noteId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await editableNote(tx, ctx, patientId, noteId);
    await tx.delete(patientNotes).where(eq(patientNotes.id, noteId));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Deleted', {
        type: 'patient note',
        id: noteId,
        description: `Deleted a note of patient ${patientId}`,
      }),
    );
  });
}
