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
  /** Patients of the clinic that are not deleted (archived ones included). */
  patients: z.number().int(),
  /** Appointments starting today, clinic time, whatever their status. */
  appointmentsToday: z.number().int(),
  /** Questionnaire and custom-form responses submitted since Sunday, clinic time. */
  formsCompletedThisWeek: z.number().int(),
  /** The newest entries of the clinic's activity log, newest first. */
  latestActivity: z.array(activityEntrySchema).max(ADMIN_DASHBOARD_LATEST_ACTIVITY),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;
