import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { CodeGroup, CodeGroupInput } from '@pathwell/contracts/outreach';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { codeGroups } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { requireOutreach } from './outreach-access';

/*
 * Code groups (issue #15 §1): a clinic names a set of codes once ("lumbar radiculopathy": M54.16,
 * M54.17, M51.16) and reuses it in code pull and hot-list templates. Names are unique per clinic,
 * ignoring case; a deleted group stays in the table (templates that named it simply stop expanding it).
 */

type CodeGroupRow = typeof codeGroups.$inferSelect;

const toView = (row: CodeGroupRow): CodeGroup => ({
  id: row.id,
  name: row.name,
  codes: row.codes,
  updatedAt: row.updatedAt.toISOString(),
});

const live = (ctx: SignedInContext) => and(eq(codeGroups.instanceId, ctx.instanceId), isNull(codeGroups.deletedAt));

async function findGroup(db: Database, ctx: SignedInContext, id: string): Promise<CodeGroupRow> {
  const [row] = await db
    .select()
    .from(codeGroups)
    .where(and(live(ctx), eq(codeGroups.id, id)));
  if (!row) throw notFound('codeGroupNotFound');
  return row;
}

async function requireFreeName(db: Database, ctx: SignedInContext, name: string, exceptId?: string): Promise<void> {
  const [clash] = await db
    .select({ id: codeGroups.id })
    .from(codeGroups)
    .where(and(live(ctx), sql`lower(${codeGroups.name}) = lower(${name})`, exceptId ? ne(codeGroups.id, exceptId) : undefined))
    .limit(1);
  if (clash) throw new AppError('CONFLICT', 'codeGroupNameTaken', { fields: { name: 'codeGroupNameTaken' } });
}

export async function listCodeGroups(ctx: SignedInContext): Promise<{ data: CodeGroup[] }> {
  await requireOutreach(ctx);
  const rows = await ctx.db
    .select()
    .from(codeGroups)
    .where(live(ctx))
    .orderBy(asc(sql`lower(${codeGroups.name})`));
  return { data: rows.map(toView) };
}

export async function createCodeGroup(ctx: SignedInContext, input: CodeGroupInput): Promise<CodeGroup> {
  await requireOutreach(ctx);
  await requireFreeName(ctx.db, ctx, input.name);
  const [row] = await ctx.db
    .insert(codeGroups)
    .values({ instanceId: ctx.instanceId, name: input.name, codes: input.codes, createdBy: ctx.actor.userId })
    .returning();
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Admin Configuration', 'Created', {
      type: 'codeGroup',
      id: row!.id,
      description: `Code group "${input.name}" created (${input.codes.length} codes)`,
    }),
  );
  return toView(row!);
}

export async function updateCodeGroup(ctx: SignedInContext, id: string, input: CodeGroupInput): Promise<CodeGroup> {
  await requireOutreach(ctx);
  await findGroup(ctx.db, ctx, id);
  await requireFreeName(ctx.db, ctx, input.name, id);
  const [row] = await ctx.db
    .update(codeGroups)
    .set({ name: input.name, codes: input.codes, updatedAt: new Date() })
    .where(and(live(ctx), eq(codeGroups.id, id)))
    .returning();
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Admin Configuration', 'Updated', {
      type: 'codeGroup',
      id,
      description: `Code group "${input.name}" saved (${input.codes.length} codes)`,
    }),
  );
  return toView(row!);
}

export async function deleteCodeGroup(ctx: SignedInContext, id: string): Promise<void> {
  await requireOutreach(ctx);
  const group = await findGroup(ctx.db, ctx, id);
  await ctx.db
    .update(codeGroups)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(live(ctx), eq(codeGroups.id, id)));
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Admin Configuration', 'Deleted', {
      type: 'codeGroup',
      id,
      description: `Code group "${group.name}" deleted`,
    }),
  );
}
