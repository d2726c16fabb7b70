import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { RecentCode, VisitRecord } from '@pathwell/contracts/interventions';
import type { z } from 'zod';
import type { visitRecordInputSchema } from '@pathwell/contracts/interventions';
import type { SignedInContext } from '../../context';
import { managedItems, users, visitRecords } from '../../db/schema';
import { announce } from '../../lib/domain-events';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisibleAppointment } from '../appointments/appointments.service';

type VisitRecordPayload = z.output<typeof visitRecordInputSchema>;

/** How far back "recent codes" reach, and how many are offered. */
const RECENT_DAYS = 180;
const RECENT_LIMIT = 30;

export async function getVisitRecord(ctx: SignedInContext, appointmentId: string): Promise<VisitRecord> {
  const visit = await findVisibleAppointment(ctx.db, ctx, appointmentId);
  const [row] = await ctx.db
    .select({ record: visitRecords, firstName: users.firstName, lastName: users.lastName })
    .from(visitRecords)
    .leftJoin(users, eq(users.id, visitRecords.recordedBy))
    .where(and(eq(visitRecords.instanceId, ctx.instanceId), eq(visitRecords.appointmentId, visit.id)));
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Appointments', 'Viewed', { type: 'appointment', id: visit.id, description: 'Visit record viewed' }),
  );
  return {
    appointmentId: visit.id,
    patientId: visit.patientId,
    actionsTaken: row?.record.actionsTaken ?? [],
    diagnosisCodes: row?.record.diagnosisCodes ?? [],
    procedureCodes: row?.record.procedureCodes ?? [],
    note: row?.record.note ?? null,
    recordedByName: row?.firstName ? [row.firstName, row.lastName].filter(Boolean).join(' ') : null,
    updatedAt: row?.record.updatedAt.toISOString() ?? null,
  };
}

/** One record per visit, replaced as a whole: what the provider sees is what is stored. */
export async function saveVisitRecord(
  ctx: SignedInContext,
  appointmentId: string,
  input: VisitRecordPayload,
): Promise<VisitRecord> {
  await ctx.db.transaction(async (tx) => {
    const visit = await findVisibleAppointment(tx, ctx, appointmentId);
    const values = {
      actionsTaken: input.actionsTaken,
      diagnosisCodes: input.diagnosisCodes,
      procedureCodes: input.procedureCodes,
      note: input.note,
      recordedBy: ctx.actor.userId,
      updatedAt: new Date(),
    };
    const [saved] = await tx
      .insert(visitRecords)
      .values({ instanceId: ctx.instanceId, patientId: visit.patientId, appointmentId: visit.id, ...values })
      .onConflictDoUpdate({ target: [visitRecords.instanceId, visitRecords.appointmentId], set: values })
      .returning({ id: visitRecords.id });
    // Outreach listens: the visit's codes feed hotlists and campaign audiences.
    await announce(ctx, tx, 'visitRecordSaved', { visitRecordId: saved!.id });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Appointments', 'Updated', { type: 'appointment', id: visit.id, description: 'Visit record saved' }),
    );
  });
  return getVisitRecord(ctx, appointmentId);
}

/**
 * The codes this clinic used in the last RECENT_DAYS days, most used first, so a provider picks rather
 * than types. Procedure codes add the CPT codes of the clinic's interventional items, labelled with the
 * clinic's own item name; Pathwell ships no code descriptions of its own.
 */
export async function recentCodes(ctx: SignedInContext, kind: 'diagnosis' | 'procedure'): Promise<RecentCode[]> {
  const column = kind === 'diagnosis' ? visitRecords.diagnosisCodes : visitRecords.procedureCodes;
  const since = new Date(Date.now() - RECENT_DAYS * 86_400_000);
  const used = await ctx.db
    .select({ code: sql<string>`code`, uses: sql<number>`count(*)::int` })
    .from(sql`${visitRecords}, unnest(${column}) as code`)
    .where(and(eq(visitRecords.instanceId, ctx.instanceId), gte(visitRecords.updatedAt, since)))
    .groupBy(sql`code`)
    .orderBy(sql`count(*) desc`, sql`code`)
    .limit(RECENT_LIMIT);
  if (kind === 'diagnosis') return used.map((row) => ({ ...row, clinicLabel: null }));
  const items = await ctx.db
    .select({ name: managedItems.name, code: sql<string | null>`${managedItems.attributes}->>'cptCode'` })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, ctx.instanceId),
        inArray(managedItems.listType, ['interventionalitems:1', 'interventionalitems:2']),
        isNull(managedItems.deletedAt),
        sql`${managedItems.attributes} ? 'cptCode'`,
      ),
    );
  const labelOf = new Map<string, string>();
  for (const item of items) if (item.code && !labelOf.has(item.code)) labelOf.set(item.code, item.name);
  const result: RecentCode[] = used.map((row) => ({ ...row, clinicLabel: labelOf.get(row.code) ?? null }));
  for (const [code, name] of labelOf)
    if (!result.some((row) => row.code === code)) result.push({ code, uses: 0, clinicLabel: name });
  return result;
}
