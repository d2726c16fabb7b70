import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import {
  PAIN_SERIES_LIMIT,
  PAIN_TIMELINE_LIMIT,
  type PainInterval,
  type PainSeries,
  type PainTimeline,
} from '@pathwell/contracts/pain-journal';
import type { SignedInContext } from '../../context';
import { appointments, interventions, managedItems, painEntries } from '../../db/schema';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { clinicTimeZone } from '../settings/settings.service';
import { rowsOf } from '../../lib/sql-rows';

const visitStatuses = [AppointmentStatus.Completed, AppointmentStatus.Checking_In];

/**
 * Journal entries and visit scores per day, week (ISO, from Monday) or month of the clinic's calendar,
 * grouped in SQL with date_trunc on the clinic's wall clock.
 */
export async function painSeries(ctx: SignedInContext, patientId: string, interval: PainInterval): Promise<PainSeries> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const timeZone = await clinicTimeZone(tx, ctx.instanceId);
    const result = await rowsOf<{ period_start: string; average: string; min: number; max: number; count: number }>(
      tx,
      sql`
      with points as (
        select ${painEntries.recordedAt} as at, ${painEntries.score}::int as score
          from ${painEntries}
         where ${painEntries.instanceId} = ${ctx.instanceId} and ${painEntries.patientId} = ${patient.id}
           and ${painEntries.source} = 'journal'
        union all
        select ${appointments.startsAt}, ${appointments.painScore}::int
          from ${appointments}
         where ${appointments.instanceId} = ${ctx.instanceId} and ${appointments.patientId} = ${patient.id}
           and ${appointments.deletedAt} is null and ${appointments.painScore} is not null
           and ${appointments.status} in (${sql.join(
             visitStatuses.map((status) => sql`${status}`),
             sql`, `,
           )})
      )
      select to_char(date_trunc(${interval}, at at time zone ${timeZone}), 'YYYY-MM-DD') as period_start,
             round(avg(score), 1)::text as average, min(score)::int as min, max(score)::int as max, count(*)::int as count
        from points
       group by 1
       order by 1 desc
       limit ${PAIN_SERIES_LIMIT}`,
    );
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patient.id,
        description: `Viewed the pain series (${interval}) of patient ${patient.id}`,
      }),
    );
    return {
      interval,
      timeZone,
      series: result.reverse().map((row) => ({
        periodStart: row.period_start,
        average: Number(row.average),
        min: Number(row.min),
        max: Number(row.max),
        count: Number(row.count),
      })),
    };
  });
}

/** The pain chart's points: visits, journal entries (with the patient's notes) and procedures performed. */
export async function painTimeline(ctx: SignedInContext, patientId: string): Promise<PainTimeline> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const visits = await tx
      .select({ id: appointments.id, startsAt: appointments.startsAt, score: appointments.painScore })
      .from(appointments)
      .where(
        and(
          eq(appointments.instanceId, ctx.instanceId),
          eq(appointments.patientId, patient.id),
          isNull(appointments.deletedAt),
          inArray(appointments.status, visitStatuses),
          sql`${appointments.painScore} is not null`,
        ),
      )
      .orderBy(desc(appointments.startsAt))
      .limit(PAIN_TIMELINE_LIMIT);
    const journal = await tx
      .select({ id: painEntries.id, recordedAt: painEntries.recordedAt, score: painEntries.score, note: painEntries.note })
      .from(painEntries)
      .where(
        and(eq(painEntries.instanceId, ctx.instanceId), eq(painEntries.patientId, patient.id), eq(painEntries.source, 'journal')),
      )
      .orderBy(desc(painEntries.recordedAt))
      .limit(PAIN_TIMELINE_LIMIT);
    const procedures = await tx
      .select({
        id: interventions.id,
        performedOn: interventions.performedOn,
        kind: interventions.kind,
        itemName: managedItems.name,
      })
      .from(interventions)
      .leftJoin(
        managedItems,
        and(eq(managedItems.id, interventions.itemId), eq(managedItems.instanceId, interventions.instanceId)),
      )
      .where(
        and(
          eq(interventions.instanceId, ctx.instanceId),
          eq(interventions.patientId, patient.id),
          isNull(interventions.deletedAt),
        ),
      )
      .orderBy(desc(interventions.performedOn), asc(interventions.createdAt))
      .limit(PAIN_TIMELINE_LIMIT);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Dashboard', 'Viewed', {
        type: 'patient',
        id: patient.id,
        description: `Viewed the pain timeline of patient ${patient.id}`,
      }),
    );
    return {
      visits: visits.reverse().map((row) => ({ appointmentId: row.id, startsAt: row.startsAt.toISOString(), score: row.score! })),
      journal: journal
        .reverse()
        .map((row) => ({ id: row.id, recordedAt: row.recordedAt.toISOString(), score: row.score, note: row.note })),
      procedures: procedures.reverse().map((row) => ({ ...row, itemName: row.itemName ?? null })),
    };
  });
}
