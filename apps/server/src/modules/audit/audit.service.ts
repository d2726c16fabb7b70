import { sql } from 'drizzle-orm';
import type { ActivityAction, ActivityArea } from '@pathwell/contracts/enums';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { reusableQuery } from '../../db/reusable-query';
import { activityLogs } from '../../db/schema';
import { rowsOf } from '../../lib/sql-rows';

export interface ActivityEntry {
  instanceId: string | null;
  actorUserId: string | null;
  actorEmail: string | null;
  area: ActivityArea;
  action: ActivityAction;
  targetType?: string;
  targetId?: string;
  description?: string;
  ip: string | null;
}

/** An entry by the signed-in staff member, in the acting clinic. */
export function staffActivity(
  ctx: SignedInContext,
  area: ActivityArea,
  action: ActivityAction,
  target: { type?: string; id?: string | null; description?: string },
): ActivityEntry {
  return {
    instanceId: ctx.instanceId,
    actorUserId: ctx.actor.userId,
    actorEmail: ctx.actor.email,
    area,
    action,
    targetType: target.type,
    targetId: target.id ?? undefined,
    description: target.description,
    ip: ctx.ip,
  };
}

// Every read of patient data writes one of these, so the insert is built once and sent as a named
// statement (db/reusable-query.ts) rather than rebuilt by drizzle on each call.
const insertActivity = reusableQuery('record_activity', (db) =>
  db.insert(activityLogs).values({
    instanceId: sql.placeholder('instanceId'),
    actorUserId: sql.placeholder('actorUserId'),
    actorEmail: sql.placeholder('actorEmail'),
    area: sql.placeholder('area'),
    action: sql.placeholder('action'),
    targetType: sql.placeholder('targetType'),
    targetId: sql.placeholder('targetId'),
    description: sql.placeholder('description'),
    ip: sql.placeholder('ip'),
  }),
);

/** Call inside the transaction of the change it records, so that both land or neither does. */
export async function recordActivity(db: Database, entry: ActivityEntry): Promise<void> {
  await insertActivity(db, {
    instanceId: entry.instanceId,
    actorUserId: entry.actorUserId,
    actorEmail: entry.actorEmail,
    area: entry.area,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    description: entry.description ?? null,
    ip: entry.ip,
  });
}

interface ChainBreak {
  id: string;
  instanceId: string | null;
  chainSeq: number;
  reason: 'content changed' | 'link broken' | 'row missing before this one';
}

/**
 * Walks every clinic's chain in the database and reports the first row whose hash no longer matches
 * its content, whose link does not point at the previous row's hash, or that follows a gap.
 */
export async function verifyActivityChain(db: Database): Promise<{ checked: number; firstBreak: ChainBreak | null }> {
  const result = await rowsOf<{
    id: string;
    instance_id: string | null;
    chain_seq: string | number;
    prev_hash: string;
    hash: string;
    recomputed: string;
    previous_hash: string | null;
    previous_seq: string | number | null;
  }>(
    db,
    sql`
    select id, instance_id, chain_seq, prev_hash, hash,
      activity_log_hash(prev_hash, chain_seq, id, instance_id, actor_user_id, actor_email, area, action,
        target_type, target_id, description, ip, created_at) as recomputed,
      lag(hash) over chain as previous_hash,
      lag(chain_seq) over chain as previous_seq
    from activity_logs
    window chain as (partition by coalesce(instance_id::text, '') order by chain_seq)
    order by coalesce(instance_id::text, ''), chain_seq
  `,
  );
  for (const row of result) {
    const chainSeq = Number(row.chain_seq);
    const at = { id: row.id, instanceId: row.instance_id, chainSeq };
    if (chainSeq !== Number(row.previous_seq ?? 0) + 1)
      return { checked: result.length, firstBreak: { ...at, reason: 'row missing before this one' } };
    if (row.prev_hash !== (row.previous_hash ?? ''))
      return { checked: result.length, firstBreak: { ...at, reason: 'link broken' } };
    if (row.recomputed !== row.hash) return { checked: result.length, firstBreak: { ...at, reason: 'content changed' } };
  }
  return { checked: result.length, firstBreak: null };
}
