import { and, eq, sql } from 'drizzle-orm';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import type { OutboxChannel } from '@pathwell/contracts/messaging';
import type { Database } from '../../db/client';
import { outboxMessages } from '../../db/schema';

/** How far ahead a held message may be pushed: past this the cap gives way rather than hold for months. */
const DAILY_CAP_MAX_DAYS_AHEAD = 60;

/**
 * The time an automatic message may go under the clinic's daily cap per patient (decision 0066): `at`
 * when the patient has had fewer than `cap` automatic messages by this channel on that clinic day, else
 * the clinic morning (`morningHour`, when texts may start) of the first later day with room. A message
 * counts on the day it goes out (`send_after`, else when it was queued); suppressed ones do not count.
 */
export async function underDailyCap(
  db: Database,
  input: { instanceId: string; patientId: string; channel: OutboxChannel },
  { at, cap, timeZone, morningHour }: { at: Date; cap: number; timeZone: string; morningHour: number },
): Promise<Date> {
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
