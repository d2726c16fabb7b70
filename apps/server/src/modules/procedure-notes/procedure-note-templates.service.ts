import { and, asc, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type ProcedureNoteKind,
  type ProcedureNoteTemplate,
  type procedureNoteTemplateInputSchema,
  unknownPlaceholders,
} from '@pathwell/contracts/procedure-notes';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { managedItems, procedureNoteTemplates } from '../../db/schema';
import { AppError, fieldError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';

/* The clinic's procedure note templates (Admin configuration, decision 0040). */

const CONFIG_AREA = 'Admin Configuration';

type TemplateRow = typeof procedureNoteTemplates.$inferSelect;

function toTemplate(row: TemplateRow, itemName: string | null): ProcedureNoteTemplate {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    itemId: row.itemId,
    itemName,
    body: row.body,
    isActive: row.isActive,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listTemplates(ctx: SignedInContext): Promise<ProcedureNoteTemplate[]> {
  const rows = await ctx.db
    .select({ template: procedureNoteTemplates, itemName: managedItems.name })
    .from(procedureNoteTemplates)
    .leftJoin(managedItems, eq(managedItems.id, procedureNoteTemplates.itemId))
    .where(and(eq(procedureNoteTemplates.instanceId, ctx.instanceId), isNull(procedureNoteTemplates.deletedAt)))
    .orderBy(asc(procedureNoteTemplates.kind), asc(procedureNoteTemplates.name));
  return rows.map(({ template, itemName }) => toTemplate(template, itemName));
}

const itemListOf: Record<ProcedureNoteKind, string | null> = {
  procedure: 'interventionalitems:1',
  injection: 'interventionalitems:2',
  pump: null,
};

/** The item must be one of the clinic's items of the template's kind (pump templates take none). */
async function checkItem(ctx: SignedInContext, db: Database, input: { kind: ProcedureNoteKind; itemId: string | null }) {
  if (input.itemId === null) return null;
  const listType = itemListOf[input.kind];
  if (listType === null) throw fieldError('itemId', 'invalid');
  const [item] = await db
    .select({ name: managedItems.name })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, ctx.instanceId),
        eq(managedItems.id, input.itemId),
        eq(managedItems.listType, listType),
        isNull(managedItems.deletedAt),
      ),
    );
  if (!item) throw fieldError('itemId', 'invalid');
  return item.name;
}

function checkBody(body: string) {
  const unknown = unknownPlaceholders(body);
  if (unknown.length > 0) {
    throw new AppError('VALIDATION', 'placeholdersUnknown', {
      params: { names: unknown.map((name) => `{{${name}}}`).join(', ') },
      fields: { body: 'placeholderUnknown' },
    });
  }
}

type TemplatePayload = z.output<typeof procedureNoteTemplateInputSchema>;

export async function createTemplate(ctx: SignedInContext, input: TemplatePayload): Promise<ProcedureNoteTemplate> {
  checkBody(input.body);
  return ctx.db.transaction(async (tx) => {
    const itemName = await checkItem(ctx, tx, input);
    const [row] = await tx
      .insert(procedureNoteTemplates)
      .values({
        instanceId: ctx.instanceId,
        name: input.name,
        kind: input.kind,
        itemId: input.itemId,
        body: input.body,
        isActive: input.isActive,
      })
      .returning();
    await recordActivity(
      tx,
      staffActivity(ctx, CONFIG_AREA, 'Created', {
        type: 'procedure note template',
        id: row!.id,
        description: `Procedure note template "${input.name}" created`,
      }),
    );
    return toTemplate(row!, itemName);
  });
}

export async function updateTemplate(ctx: SignedInContext, id: string, input: TemplatePayload): Promise<ProcedureNoteTemplate> {
  checkBody(input.body);
  return ctx.db.transaction(async (tx) => {
    const itemName = await checkItem(ctx, tx, input);
    const [row] = await tx
      .update(procedureNoteTemplates)
      .set({
        name: input.name,
        kind: input.kind,
        itemId: input.itemId,
        body: input.body,
        isActive: input.isActive,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(procedureNoteTemplates.instanceId, ctx.instanceId),
          eq(procedureNoteTemplates.id, id),
          isNull(procedureNoteTemplates.deletedAt),
        ),
      )
      .returning();
    if (!row) throw notFound('templateNotFound');
    await recordActivity(
      tx,
      staffActivity(ctx, CONFIG_AREA, 'Updated', {
        type: 'procedure note template',
        id,
        description: `Procedure note template "${input.name}" updated`,
      }),
    );
    return toTemplate(row, itemName);
  });
}

/** Soft: notes filled from it keep pointing at it. */
export async function deleteTemplate(ctx: SignedInContext, id: string) {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(procedureNoteTemplates)
      .set({ deletedAt: new Date(), isActive: false, updatedAt: new Date() })
      .where(
        and(
          eq(procedureNoteTemplates.instanceId, ctx.instanceId),
          eq(procedureNoteTemplates.id, id),
          isNull(procedureNoteTemplates.deletedAt),
        ),
      )
      .returning({ name: procedureNoteTemplates.name });
    if (!row) throw notFound('templateNotFound');
    await recordActivity(
      tx,
      staffActivity(ctx, CONFIG_AREA, 'Deleted', {
        type: 'procedure note template',
        id,
        description: `Procedure note template "${row.name}" deleted`,
      }),
    );
  });
}
