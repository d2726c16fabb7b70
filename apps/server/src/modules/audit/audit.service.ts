import type { ActivityAction, ActivityArea } from '@pathwell/contracts/enums';
import type { Database } from '../../db/client';
import { activityLogs } from '../../db/schema';

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

/** Call inside the transaction of the change it records, so that both land or neither does. */
export async function recordActivity(db: Database, entry: ActivityEntry): Promise<void> {
  await db.insert(activityLogs).values({
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
