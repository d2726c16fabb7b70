import { and, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import { clinicDayEnd, clinicDayStart, clinicMdy, clinicTime12 } from '@pathwell/contracts/clinic-time';
import type { AppointmentDashboard } from '@pathwell/contracts/intake';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { doctorScope, type SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { appointments, intakeEntries, patientLinks } from '../../db/schema';
import { fieldError } from '../../lib/app-error';
import { appointmentScope, selectAppointments } from '../appointments/appointments.service';
import { findingsOfAppointmentRows } from '../critical-findings/critical-findings.service';
import { recordActivity } from '../audit/audit.service';
import { linkStatusOf } from '../patient-contact/link-access.service';
import { clinicTimeZoneFrom, isOn, readSettings, type SettingsMap } from '../settings/settings.service';
import { intakeActivity } from './intake-plans.service';
import { stepStates } from './intake-progress';

/* The appointment dashboard: a clinic day's appointments, each with how far its latest intake got. */

export function dayWindow(settings: SettingsMap, date: string | undefined) {
  const timeZone = clinicTimeZoneFrom(settings);
  if (date !== undefined && !isValidMdyDate(date)) throw fieldError('date', 'dateInvalid');
  const day = date ?? clinicMdy(new Date(), timeZone);
  return { day, timeZone, from: clinicDayStart(day, timeZone), to: clinicDayEnd(day, timeZone) };
}

/** The latest intake link of each appointment. */
export async function latestIntakes(db: Database, instanceId: string, appointmentIds: string[]) {
  if (appointmentIds.length === 0) return new Map<string, typeof patientLinks.$inferSelect>();
  const links = await db
    .select()
    .from(patientLinks)
    .where(
      and(
        eq(patientLinks.instanceId, instanceId),
        eq(patientLinks.kind, 'intake'),
        inArray(patientLinks.appointmentId, appointmentIds),
      ),
    )
    .orderBy(desc(patientLinks.createdAt));
  const latest = new Map<string, typeof patientLinks.$inferSelect>();
  for (const link of links) if (!latest.has(link.appointmentId!)) latest.set(link.appointmentId!, link);
  return latest;
}

export async function appointmentDashboard(
  ctx: SignedInContext,
  query: { date?: string; doctorId?: string; roomId?: string },
): Promise<AppointmentDashboard> {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  const { day, timeZone, from, to } = dayWindow(settings, query.date);
  const conditions = [
    ...appointmentScope(ctx, doctorScope(ctx, query.doctorId) ?? undefined),
    gte(appointments.startsAt, from),
    lt(appointments.startsAt, to),
  ];
  if (query.roomId) conditions.push(eq(appointments.roomId, query.roomId));
  const rows = await selectAppointments(ctx.db)
    .where(and(...conditions))
    .orderBy(appointments.startsAt, appointments.id)
    .limit(500);
  const latest = await latestIntakes(
    ctx.db,
    ctx.instanceId,
    rows.map((row) => row.id),
  );
  const linkIds = [...latest.values()].map((link) => link.id);
  const entries = linkIds.length
    ? await ctx.db
        .select({
          linkId: intakeEntries.linkId,
          step: intakeEntries.step,
          formKey: intakeEntries.formKey,
          completedAt: intakeEntries.completedAt,
        })
        .from(intakeEntries)
        .where(inArray(intakeEntries.linkId, linkIds))
    : [];
  const findings = await findingsOfAppointmentRows(
    ctx.db,
    ctx.instanceId,
    rows.map((row) => ({ appointmentId: row.id, patientId: row.patientId })),
  );
  const now = new Date();
  await recordActivity(ctx.db, intakeActivity(ctx, 'Viewed', ctx.instanceId, `Viewed the appointment dashboard for ${day}`));
  return {
    date: day,
    selfCheckIn: isOn(settings, 'enablePatientSelfCheckin'),
    rows: rows.map((row) => {
      const link = latest.get(row.id);
      return {
        appointmentId: row.id,
        patientId: row.patientId,
        patientName: [row.firstName, row.lastName].join(' '),
        startsAt: row.startsAt.toISOString(),
        timeText: clinicTime12(row.startsAt, timeZone),
        doctorName: row.doctorId ? `${row.doctorFirstName ?? ''} ${row.doctorLastName ?? ''}`.trim() : null,
        roomName: row.roomName ?? null,
        status: row.status,
        checkedIn: row.checkedInAt !== null,
        criticalFindings: findings.get(row.id) ?? [],
        intake: link
          ? {
              linkStatus: linkStatusOf(link, now),
              steps: stepStates(
                link.intakePlan!,
                entries.filter((entry) => entry.linkId === link.id),
              ),
            }
          : null,
      };
    }),
  };
}
