import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { complianceSchema, PlannedProcedure, plannedProcedureUpsertSchema } from '@pathwell/contracts/interventions';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { managedItems, plannedProcedures } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';

type Upsert = z.output<typeof plannedProcedureUpsertSchema>;
type Compliance = z.output<typeof complianceSchema>;

async function toPlanned(db: Database, rows: (typeof plannedProcedures.$inferSelect)[]): Promise<PlannedProcedure[]> {
  if (rows.length === 0) return [];
  const items = await db
    .select({ id: managedItems.id, name: managedItems.name, attributes: managedItems.attributes })
    .from(managedItems)
    .where(inArray(managedItems.id, [...new Set(rows.map((row) => row.itemId))]));
  const itemOf = new Map(items.map((item) => [item.id, item]));
  return rows.map((row) => {
    const item = itemOf.get(row.itemId);
    const cptCode = item?.attributes.cptCode;
    return {
      id: row.id,
      patientId: row.patientId,
      item: { id: row.itemId, name: item?.name ?? '', cptCode: typeof cptCode === 'string' ? cptCode : null },
      status: row.status,
      plannedFor: row.plannedFor,
      compliance: row.compliance,
      interventionId: row.interventionId,
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

async function findPlanned(ctx: SignedInContext, db: Database, id: string) {
  const [row] = await db
    .select()
    .from(plannedProcedures)
    .where(and(eq(plannedProcedures.id, id), eq(plannedProcedures.instanceId, ctx.instanceId)))
    .for('update');
  if (!row) throw notFound('plannedProcedureNotFound');
  await findVisiblePatient(ctx, db, row.patientId).catch(() => {
    throw notFound('plannedProcedureNotFound');
  });
  return row;
}

export async function patientPlannedProcedures(ctx: SignedInContext, patientId: string): Promise<PlannedProcedure[]> {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  const rows = await ctx.db
    .select()
    .from(plannedProcedures)
    .where(and(eq(plannedProcedures.instanceId, ctx.instanceId), eq(plannedProcedures.patientId, patient.id)))
    .orderBy(asc(plannedProcedures.createdAt));
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Interventions', 'Viewed', { type: 'patient', id: patient.id, description: 'Planned procedures viewed' }),
  );
  return toPlanned(ctx.db, rows);
}

/** "Procedures upsert": adds a planned procedure, or changes its item, status or date. */
export async function upsertPlannedProcedure(ctx: SignedInContext, input: Upsert): Promise<PlannedProcedure> {
  const id = await ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, input.patientId);
    const [item] = await tx
      .select({ id: managedItems.id, listType: managedItems.listType })
      .from(managedItems)
      .where(and(eq(managedItems.id, input.itemId), eq(managedItems.instanceId, ctx.instanceId), isNull(managedItems.deletedAt)));
    if (!item || !['interventionalitems:1', 'interventionalitems:2'].includes(item.listType)) {
      throw new AppError('VALIDATION', 'valuesInvalid', { fields: { itemId: 'invalid' } });
    }
    if (input.id) {
      const existing = await findPlanned(ctx, tx, input.id);
      if (existing.patientId !== input.patientId)
        throw new AppError('VALIDATION', 'valuesInvalid', { fields: { patientId: 'invalid' } });
      await tx
        .update(plannedProcedures)
        .set({ itemId: input.itemId, status: input.status, plannedFor: input.plannedFor, updatedAt: new Date() })
        .where(eq(plannedProcedures.id, existing.id));
      await recordActivity(
        tx,
        staffActivity(ctx, 'Interventions', 'Updated', {
          type: 'planned procedure',
          id: existing.id,
          description: `Planned procedure: ${input.status}`,
        }),
      );
      return existing.id;
    }
    const [row] = await tx
      .insert(plannedProcedures)
      .values({
        instanceId: ctx.instanceId,
        patientId: input.patientId,
        itemId: input.itemId,
        status: input.status,
        plannedFor: input.plannedFor,
        createdBy: ctx.actor.userId,
      })
      .returning({ id: plannedProcedures.id });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Interventions', 'Created', {
        type: 'planned procedure',
        id: row!.id,
        description: 'Procedure planned',
      }),
    );
    return row!.id;
  });
  return (await toPlanned(ctx.db, await ctx.db.select().from(plannedProcedures).where(eq(plannedProcedures.id, id))))[0]!;
}

/** "Compliance update": what the payer asks before authorising (conservative care, therapy, imaging, psychology). */
export async function updateCompliance(ctx: SignedInContext, id: string, compliance: Compliance): Promise<PlannedProcedure> {
  await ctx.db.transaction(async (tx) => {
    const existing = await findPlanned(ctx, tx, id);
    await tx.update(plannedProcedures).set({ compliance, updatedAt: new Date() }).where(eq(plannedProcedures.id, existing.id));
    await recordActivity(
      tx,
      staffActivity(ctx, 'Interventions', 'Updated', { type: 'planned procedure', id, description: 'Compliance updated' }),
    );
  });
  return (await toPlanned(ctx.db, await ctx.db.select().from(plannedProcedures).where(eq(plannedProcedures.id, id))))[0]!;
}
