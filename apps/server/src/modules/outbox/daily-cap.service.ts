import { and, eq, sql } from 'drizzle-orm';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import type { OutboxChannel } from '@pathwell/contracts/messaging';
import type { Database } from '../../db/client';
import { outboxMessages } from '../../db/schema';

/** How far ahead a held message may be pushed: past this the cap gives way rather than hold for months. */
const DAILY_CAP_MAX_DAYS_AHEAD = 60;

/**
 * Makes counting and queueing atomic per patient (decision 0066): a transaction-scoped advisory lock on
 * each patient, held until the caller's transaction ends, so a second sender (the pathway sweep and a
 * campaign batch at the same instant, two server processes) waits for the first one's message to be
 * committed before it counts. Several patients are locked in the order of their lock keys: a campaign batch
 * locks its whole batch up front, so two batches sharing patients in different orders cannot deadlock.
 * Taking a lock the transaction already holds is free (advisory locks are re-entrant).
 */
export async function lockDailyCap(db: Database, instanceId: string, patientIds: readonly string[]): Promise<void> {
  if (patientIds.length === 0) return;
  // Ids and colons only: safe inside an array literal.
  const names = `{${[...new Set(patientIds)].map((patientId) => `daily-cap:${instanceId}:${patientId}`).join(',')}}`;
  await db.execute(
    sql`select pg_advisory_xact_lock(key) from (
      select distinct hashtext(name) as key from unnest(${names}::text[]) as name order by key
    ) as ordered`,
  );
}

/**
 * The time an automatic message may go under the clinic's daily cap per patient (decision 0066): `at`
 * when the patient has had fewer than `cap` automatic messages by this channel on that clinic day, else
 * the clinic morning (`morningHour`, when texts may start) of the first later day with room. A message
 * counts on the day it goes out (`send_after`, else when it was queued); suppressed ones do not count.
 * Locks the patient first (`lockDailyCap`): the caller's transaction must insert the message before it ends.
 */
export async function underDailyCap(
  db: Database,
  input: { instanceId: string; patientId: string; channel: OutboxChannel },
  { at, cap, timeZone, morningHour }: { at: Date; cap: number; timeZone: string; morningHour: number },
): Promise<Date> {
  await lockDailyCap(db, input.instanceId, [input.patientId]);
  let candidate = at;
  for (let day = 0; day < DAILY_CAP_MAX_DAYS_AHEAD; day++) {
    const clock = clinicClock(candidate, timeZone);
    const dayStart = instantOfClinicTime(clock.year, clock.month, clock.day, timeZone, 0, 0);
    const nextDay = instantOfClinicTime(clock.year, clock.month, clock.day + 1, timeZone, 0, 0);
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(outboxMessages)
      .where(
        and(
          eq(outboxMessages.instanceId, input.instanceId),
          eq(outboxMessages.patientId, input.patientId),
          eq(outboxMessages.channel, input.channel),
          eq(outboxMessages.automatic, true),
          sql`${outboxMessages.status} <> 'suppressed'`,
          sql`coalesce(${outboxMessages.sendAfter}, ${outboxMessages.createdAt}) >= ${dayStart.toISOString()}`,
          sql`coalesce(${outboxMessages.sendAfter}, ${outboxMessages.createdAt}) < ${nextDay.toISOString()}`,
        ),
      );
    if ((row?.count ?? 0) < cap) return candidate;
    candidate = instantOfClinicTime(clock.year, clock.month, clock.day + 1, timeZone, morningHour, 0);
  }
  return candidate;
}
