import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { PAIN_JOURNAL_LINK_DAYS } from '@pathwell/contracts/pain-journal';
import type { Database } from '../client';
import { sha256 } from '../../lib/secrets';
import { interventions, managedItems, painEntries, patientLinks } from '../schema';
import { DEMO_LUMBAR_TFESI } from './demo-care';

const DAY_MS = 86_400_000;
/** Entries every other day from two weeks before the injection to five weeks after it. */
const DAYS_BEFORE = 14;
const DAYS_AFTER = 35;
const EVERY_DAYS = 2;

/**
 * Demo pain curves (numbers made up for the demo, not clinical data): the first patient's pain falls
 * after the injection and stays low, the second eases a little, the third does not change.
 */
export const demoPainCurves: ((day: number) => number)[] = [
  (day) => (day < 0 ? 7 + (Math.abs(day) % 3 === 0 ? 1 : 0) : Math.max(2, 7 - Math.ceil(day / 2)) + (day % 6 === 0 ? 1 : 0)),
  (day) => (day < 0 ? 6 : 5 - (day > 14 ? 1 : 0) + (day % 4 === 0 ? 1 : 0)),
  (day) => 6 + (day % 5 === 0 ? 1 : 0),
];

const demoNotes: Record<number, string> = {
  [-6]: 'Hard to sleep, pain down the left leg.',
  [4]: 'A bit sore where the needle went in.',
  [10]: 'Walked to the park today.',
  [24]: 'Good week.',
};

const isoDay = (isoDate: string, offset: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * The pain journal in a demo clinic (decision 0042): for the patients who had the demo lumbar injection
 * (seedDemoCare runs first), journal entries around its date on the clinic's evenings, through the
 * 30-day links that would have carried them. Entries stop at today.
 */
export async function seedDemoPainJournal(tx: Database, options: { instanceId: string; timeZone: string; now?: Date }) {
  const { instanceId, timeZone } = options;
  const now = options.now ?? new Date();
  const procedures = await tx
    .select({ patientId: interventions.patientId, performedOn: interventions.performedOn })
    .from(interventions)
    .innerJoin(managedItems, eq(managedItems.id, interventions.itemId))
    .where(
      and(eq(interventions.instanceId, instanceId), eq(managedItems.name, DEMO_LUMBAR_TFESI), isNull(interventions.deletedAt)),
    )
    .orderBy(asc(interventions.performedOn), asc(interventions.patientId))
    .limit(demoPainCurves.length);
  let entries = 0;
  for (const [index, procedure] of procedures.entries()) {
    const curve = demoPainCurves[index]!;
    const days: number[] = [];
    for (let day = -DAYS_BEFORE; day <= DAYS_AFTER; day += EVERY_DAYS) days.push(day);
    const rows: (typeof painEntries.$inferInsert)[] = [];
    let link: { id: string; until: number } | null = null;
    for (const day of days) {
      const [year, month, date] = isoDay(procedure.performedOn, day).split('-').map(Number) as [number, number, number];
      const recordedAt = instantOfClinicTime(year, month, date, timeZone, 19, 30);
      if (recordedAt.getTime() > now.getTime()) break;
      if (!link || recordedAt.getTime() >= link.until) {
        const issuedAt = new Date(recordedAt.getTime() - 2 * 3_600_000);
        const expiresAt = new Date(issuedAt.getTime() + PAIN_JOURNAL_LINK_DAYS * DAY_MS);
        const [row] = await tx
          .insert(patientLinks)
          .values({
            instanceId,
            patientId: procedure.patientId,
            kind: 'painJournal',
            // Nobody holds the token of a demo link: only its hash exists.
            tokenHash: sha256(randomBytes(32).toString('base64url')),
            language: 'en',
            expiresAt,
            createdAt: issuedAt,
          })
          .returning({ id: patientLinks.id });
        link = { id: row!.id, until: expiresAt.getTime() };
      }
      rows.push({
        instanceId,
        patientId: procedure.patientId,
        source: 'journal',
        score: Math.min(10, Math.max(0, curve(day))),
        note: index === 0 ? (demoNotes[day] ?? null) : null,
        linkId: link.id,
        recordedAt,
      });
    }
    if (rows.length) await tx.insert(painEntries).values(rows);
    entries += rows.length;
  }
  return { patients: procedures.length, entries };
}
