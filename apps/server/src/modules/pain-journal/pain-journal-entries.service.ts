import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { clinicIsoDate } from '@pathwell/contracts/clinic-time';
import {
  PAIN_JOURNAL_LAST_ENTRIES,
  type PainJournalDay,
  type PainJournalSaved,
  type PainJournalView,
} from '@pathwell/contracts/pain-journal';
import type { z } from 'zod';
import type { painJournalEntrySchema } from '@pathwell/contracts/pain-journal';
import type { ServiceContext } from '../../context';
import type { Database } from '../../db/client';
import { painEntries, patients, type patientLinks } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity } from '../audit/audit.service';
import { findLink, gone, linkStatusOf, patientActivity } from '../patient-contact/link-access.service';
import { clinicTimeZone, clinicTimeZoneFrom, readSettings } from '../settings/settings.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';

type LinkRow = typeof patientLinks.$inferSelect;

/** Open or closed; a journal link is never "completed": it takes an entry a day until it lapses. */
function journalStatus(link: LinkRow, now = new Date()): PainJournalView['status'] {
  const status = linkStatusOf(link, now);
  return status === 'revoked' ? 'revoked' : status === 'expired' || status === 'completed' ? 'expired' : 'active';
}

async function patientIsReachable(db: Database, link: LinkRow) {
  const [patient] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.id, link.patientId), eq(patients.instanceId, link.instanceId), isNull(patients.deletedAt)));
  return Boolean(patient);
}

async function lastEntries(db: Database, link: LinkRow, timeZone: string): Promise<PainJournalDay[]> {
  const rows = await db
    .select({ recordedAt: painEntries.recordedAt, score: painEntries.score })
    .from(painEntries)
    .where(
      and(
        eq(painEntries.instanceId, link.instanceId),
        eq(painEntries.patientId, link.patientId),
        eq(painEntries.source, 'journal'),
      ),
    )
    .orderBy(desc(painEntries.recordedAt))
    .limit(PAIN_JOURNAL_LAST_ENTRIES);
  return rows.map((row) => ({ date: clinicIsoDate(row.recordedAt, timeZone), score: row.score }));
}

async function findJournalLink(db: Database, token: string, forUpdate = false) {
  const link = await findLink(db, token, forUpdate, ['painJournal']);
  // A patient removed since the link was sent: the link leads nowhere.
  if (!(await patientIsReachable(db, link))) throw notFound('linkNotFound');
  return link;
}

/** What the page shows before the patient answers: the clinic and, while the link is open, the last few days. */
export async function painJournalView(ctx: ServiceContext, token: string): Promise<PainJournalView> {
  const link = await findJournalLink(ctx.db, token);
  const status = journalStatus(link);
  const timeZone = await clinicTimeZone(ctx.db, link.instanceId);
  return {
    clinicName: await clinicDisplayName(ctx.db, link.instanceId),
    language: link.language ?? 'en',
    status,
    lastEntries: status === 'active' ? (await lastEntries(ctx.db, link, timeZone)).reverse() : [],
  };
}

/**
 * One journal entry. The idempotency key is the entry's id, so a retry stores nothing twice. A second
 * entry on the same clinic day replaces the first (the patient corrected a tap), so the chart holds one
 * point a day; the link row is locked so two taps at once cannot both insert.
 */
export async function recordJournalEntry(
  ctx: ServiceContext,
  token: string,
  input: z.output<typeof painJournalEntrySchema>,
): Promise<{ created: boolean; body: PainJournalSaved }> {
  return ctx.db.transaction(async (tx) => {
    const link = await findJournalLink(tx, token, true);
    const timeZone = clinicTimeZoneFrom(await readSettings(tx, link.instanceId));
    const answer = async (row: { recordedAt: Date; score: number }, created: boolean, replaced: boolean) => ({
      created,
      body: {
        date: clinicIsoDate(row.recordedAt, timeZone),
        score: row.score,
        replaced,
        lastEntries: (await lastEntries(tx, link, timeZone)).reverse(),
      },
    });
    const [earlier] = await tx
      .select({ linkId: painEntries.linkId, recordedAt: painEntries.recordedAt, score: painEntries.score })
      .from(painEntries)
      .where(and(eq(painEntries.id, input.idempotencyKey), eq(painEntries.instanceId, link.instanceId)));
    if (earlier) {
      if (earlier.linkId === link.id) return answer(earlier, false, false);
      throw new AppError('CONFLICT', 'submissionKeyUsed');
    }
    const status = journalStatus(link);
    if (status !== 'active') throw gone(status);

    const now = new Date();
    const today = clinicIsoDate(now, timeZone);
    const [sameDay] = await tx
      .select({ id: painEntries.id })
      .from(painEntries)
      .where(
        and(
          eq(painEntries.instanceId, link.instanceId),
          eq(painEntries.patientId, link.patientId),
          eq(painEntries.source, 'journal'),
          sql`(${painEntries.recordedAt} at time zone ${timeZone})::date = ${today}::date`,
        ),
      )
      .orderBy(desc(painEntries.recordedAt))
      .limit(1);
    let entryId: string;
    if (sameDay) {
      entryId = sameDay.id;
      await tx
        .update(painEntries)
        .set({ score: input.score, note: input.note, recordedAt: now, linkId: link.id, appointmentId: link.appointmentId })
        .where(eq(painEntries.id, sameDay.id));
    } else {
      const [inserted] = await tx
        .insert(painEntries)
        .values({
          id: input.idempotencyKey,
          instanceId: link.instanceId,
          patientId: link.patientId,
          appointmentId: link.appointmentId,
          source: 'journal',
          score: input.score,
          note: input.note,
          linkId: link.id,
          recordedAt: now,
        })
        .onConflictDoNothing({ target: painEntries.id })
        .returning({ id: painEntries.id });
      // The id is taken by a row this clinic cannot see: the key was used elsewhere.
      if (!inserted) throw new AppError('CONFLICT', 'submissionKeyUsed');
      entryId = inserted.id;
    }
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Form Submission', sameDay ? 'Updated' : 'Created', {
        type: 'pain entry',
        id: entryId,
        description: `Patient ${link.patientId} recorded pain ${input.score}/10 in the pain journal${sameDay ? ' (replacing today’s entry)' : ''}`,
      }),
    );
    return answer({ recordedAt: now, score: input.score }, !sameDay, Boolean(sameDay));
  });
}
