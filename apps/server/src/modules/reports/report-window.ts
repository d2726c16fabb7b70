import { sql, type SQL } from 'drizzle-orm';
import type { ReportPeriod } from '@pathwell/contracts/reports-survey';
import { reportReader, type SignedInContext } from '../../context';
import { appointmentDateWindow, type DateWindowFilter } from '../../lib/clinic-dates';
import { clinicTimeZone } from '../settings/settings.service';

interface ReportWindow {
  from: Date;
  to: Date;
  timeZone: string;
}

/** The filter's clinic-calendar window as UTC instants, and the clinic's zone for the period buckets. */
export async function reportWindow(ctx: SignedInContext, filter: DateWindowFilter, now = new Date()): Promise<ReportWindow> {
  const timeZone = await clinicTimeZone(reportReader(ctx), ctx.instanceId);
  return { ...appointmentDateWindow(filter, now, timeZone), timeZone };
}

/**
 * The first clinic-calendar day of the instant's week or month, as YYYY-MM-DD. Weeks start on Sunday,
 * as the date presets count them (`date_trunc('week')` is ISO Monday, hence the one-day shift).
 */
export function periodStart(instant: SQL, period: ReportPeriod, timeZone: string): SQL {
  const local = sql`(${instant} at time zone ${timeZone})`;
  return period === 'month'
    ? sql`to_char(date_trunc('month', ${local}), 'YYYY-MM-DD')`
    : sql`to_char(date_trunc('week', ${local} + interval '1 day') - interval '1 day', 'YYYY-MM-DD')`;
}
