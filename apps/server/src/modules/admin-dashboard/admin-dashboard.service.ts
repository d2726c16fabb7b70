import { and, count, eq, isNull, or, sql } from 'drizzle-orm';
import { ADMIN_DASHBOARD_LATEST_ACTIVITY, type AdminDashboard } from '@pathwell/contracts/admin-dashboard';
import type { SignedInContext } from '../../context';
import { userInstances, users } from '../../db/schema';
import { latestActivity, signInCounts } from '../activity/activity.service';

/** Users who can sign in to the acting clinic: active, not deleted, home clinic or member of it. */
async function countActiveUsers(ctx: SignedInContext): Promise<number> {
  const member = ctx.db
    .select({ one: sql`1` })
    .from(userInstances)
    .where(and(eq(userInstances.userId, users.id), eq(userInstances.instanceId, ctx.instanceId)));
  const [row] = await ctx.db
    .select({ total: count() })
    .from(users)
    .where(
      and(eq(users.status, 'active'), isNull(users.deletedAt), or(eq(users.instanceId, ctx.instanceId), sql`exists ${member}`)),
    );
  return row?.total ?? 0;
}

export async function adminDashboard(ctx: SignedInContext): Promise<AdminDashboard> {
  const [activeUsers, signIns, latest] = await Promise.all([
    countActiveUsers(ctx),
    signInCounts(ctx),
    latestActivity(ctx, ADMIN_DASHBOARD_LATEST_ACTIVITY),
  ]);
  return {
    activeUsers,
    ...signIns,
    // TODO(#4): patients and today's appointments once those tables exist. TODO(#5): completed forms.
    patients: null,
    appointmentsToday: null,
    formsCompletedThisWeek: null,
    latestActivity: latest,
  };
}
