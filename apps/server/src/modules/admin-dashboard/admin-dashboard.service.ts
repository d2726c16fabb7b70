import { and, count, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import { ADMIN_DASHBOARD_LATEST_ACTIVITY, type AdminDashboard } from '@pathwell/contracts/admin-dashboard';
import type { SignedInContext } from '../../context';
import { appointments, formResponses, patients, userInstances, users } from '../../db/schema';
import { latestActivity, signInCounts } from '../activity/activity.service';
import { clinicTimeZone } from '../settings/settings.service';
import { clinicDayStartAfter, clinicTodayStart, clinicWeekStart } from '@pathwell/contracts/clinic-time';

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

/** Patients, today's appointments and forms completed since Sunday, in clinic days. */
async function clinicCounts(ctx: SignedInContext, now: Date) {
  const timeZone = await clinicTimeZone(ctx.db, ctx.instanceId);
  const todayStart = clinicTodayStart(now, timeZone);
  const [[patientRow], [appointmentRow], [formRow]] = await Promise.all([
    ctx.db
      .select({ total: count() })
      .from(patients)
      .where(and(eq(patients.instanceId, ctx.instanceId), isNull(patients.deletedAt))),
    ctx.db
      .select({ total: count() })
      .from(appointments)
      .where(
        and(
          eq(appointments.instanceId, ctx.instanceId),
          isNull(appointments.deletedAt),
          gte(appointments.startsAt, todayStart),
          lt(appointments.startsAt, clinicDayStartAfter(todayStart, 1, timeZone)),
        ),
      ),
    ctx.db
      .select({ total: count() })
      .from(formResponses)
      .where(and(eq(formResponses.instanceId, ctx.instanceId), gte(formResponses.submittedAt, clinicWeekStart(now, timeZone)))),
  ]);
  return {
    patients: patientRow?.total ?? 0,
    appointmentsToday: appointmentRow?.total ?? 0,
    formsCompletedThisWeek: formRow?.total ?? 0,
  };
}

export async function adminDashboard(ctx: SignedInContext, now = new Date()): Promise<AdminDashboard> {
  const [activeUsers, signIns, counts, latest] = await Promise.all([
    countActiveUsers(ctx),
    signInCounts(ctx, now),
    clinicCounts(ctx, now),
    latestActivity(ctx, ADMIN_DASHBOARD_LATEST_ACTIVITY),
  ]);
  return { activeUsers, ...signIns, ...counts, latestActivity: latest };
}
