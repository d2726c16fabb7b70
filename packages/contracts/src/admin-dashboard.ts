import { z } from 'zod';
import { activityEntrySchema } from './activity';

export const ADMIN_DASHBOARD_LATEST_ACTIVITY = 10;

/**
 * GET /api/admin/dashboard: the acting clinic at a glance. "Today" and "this week" are clinic days in
 * the clinic's time zone (setting timeZoneOffsetHours); a week starts on Sunday.
 */
export const adminDashboardSchema = z.object({
  /** Users who can sign in to this clinic now: active, not deleted, home clinic or member. */
  activeUsers: z.number().int(),
  /** Successful sign-ins to this clinic since midnight, clinic time. */
  signInsToday: z.number().int(),
  /** Failed sign-in steps (wrong password, refused account, wrong two-factor code) since Sunday, clinic time. */
  failedSignInsThisWeek: z.number().int(),
  /** Available once patients exist (issue #4); null until then, never an invented number. */
  patients: z.number().int().nullable(),
  /** Available once appointments exist (issue #4); null until then. */
  appointmentsToday: z.number().int().nullable(),
  /** Available once patient forms exist (issue #5); null until then. */
  formsCompletedThisWeek: z.number().int().nullable(),
  /** The newest entries of the clinic's activity log, newest first. */
  latestActivity: z.array(activityEntrySchema).max(ADMIN_DASHBOARD_LATEST_ACTIVITY),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;
