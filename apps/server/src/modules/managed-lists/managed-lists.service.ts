import { and, asc, desc, eq, ilike, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import { isValidationMessageKey } from '@pathwell/contracts/messages';
import type {
  ManagedItem,
  ManagedListDefinition,
  ManagedListFamily,
  managedItemInputSchema,
  managedItemListQuerySchema,
} from '@pathwell/contracts/managed-lists';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { managedItems } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { listTotal } from '../../lib/list-total';
import { recordActivity, staffActivity } from '../audit/audit.service';

type ItemRow = typeof managedItems.$inferSelect;
type ManagedItemListQuery = z.output<typeof managedItemListQuerySchema>;
type ManagedItemInput = z.output<typeof managedItemInputSchema>;

/** `%` and `_` typed in a search box are letters, not wildcards. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (match) => `\\${match}`);

/** Postgres unique violation, whichever driver raised it (drizzle wraps the driver's error in `cause`). */
function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

const nameTaken = () =>
  new AppError('CONFLICT', 'nameTaken', {
    fields: { name: 'nameTaken' } satisfies Record<string, ValidationMessageKey>,
  });

/** Only the list's own fields leave the server, whatever an older version stored. */
function publicAttributes(list: ManagedListDefinition, stored: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(list.attributes.shape).flatMap((key) => (key in stored ? [[key, stored[key]]] : [])));
}

function toItem(list: ManagedListDefinition, row: ItemRow): ManagedItem {
  return {
    id: row.id,
    listType: row.listType,
    name: row.name,
    attributes: publicAttributes(list, row.attributes),
    isActive: row.isActive,
    sortOrder: row.sortOrder,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The list's schema decides what is stored; its complaints come back as `attributes.<field>` errors. */
function parseAttributes(list: ManagedListDefinition, attributes: Record<string, unknown>): Record<string, unknown> {
  const result = list.attributes.safeParse(attributes);
  if (result.success) return result.data;
  const fields: Record<string, ValidationMessageKey> = {};
  for (const issue of result.error.issues) {
    const path = ['attributes', ...issue.path.map(String)].join('.');
    fields[path] ??= isValidationMessageKey(issue.message) ? issue.message : 'invalid';
  }
  throw new AppError('VALIDATION', 'fieldsInvalid', { fields });
}

function listOf(family: ManagedListFamily, listType: string): ManagedListDefinition {
  const list = family.lists.find((candidate) => candidate.listType === listType);
  if (!list) throw new Error(`list type ${listType} is not in ${family.apiPath}`);
  return list;
}

async function findRow(db: Database, ctx: SignedInContext, family: ManagedListFamily, id: string): Promise<ItemRow> {
  const [row] = await db
    .select()
    .from(managedItems)
    .where(
      and(
        eq(managedItems.id, id),
        eq(managedItems.instanceId, ctx.instanceId),
        inArray(
          managedItems.listType,
          family.lists.map((list) => list.listType),
        ),
        isNull(managedItems.deletedAt),
      ),
    );
  if (!row) throw notFound('entryNotFound');
  return row;
}

async function assertNameFree(db: Database, ctx: SignedInContext, listType: string, name: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: managedItems.id })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, ctx.instanceId),
        eq(managedItems.listType, listType),
        isNull(managedItems.deletedAt),
        sql`lower(${managedItems.name}) = lower(${name})`,
        exceptId ? ne(managedItems.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw nameTaken();
}

/** Two admins saving the same name at once: the unique index catches the second. */
async function conflictAsNameTaken<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

const activity = (ctx: SignedInContext, action: 'Created' | 'Updated' | 'Deleted', row: ItemRow) =>
  staffActivity(ctx, 'Admin Configuration', action, {
    type: row.listType,
    id: row.id,
    description: `${action} ${row.listType} entry "${row.name}"`,
  });

export async function listItems(ctx: SignedInContext, list: ManagedListDefinition, query: ManagedItemListQuery) {
  const where = and(
    eq(managedItems.instanceId, ctx.instanceId),
    eq(managedItems.listType, list.listType),
    isNull(managedItems.deletedAt),
    query.search ? ilike(managedItems.name, `%${escapeLike(query.search)}%`) : undefined,
    query.active === undefined ? undefined : eq(managedItems.isActive, query.active),
  );
  const sortColumns: Record<ManagedItemListQuery['sortBy'], SQL | typeof managedItems.sortOrder | typeof managedItems.createdAt> =
    {
      name: sql`lower(${managedItems.name})`,
      sortOrder: managedItems.sortOrder,
      createdAt: managedItems.createdAt,
    };
  const direction = query.sortDirection === 'desc' ? desc : asc;
  const rows = await ctx.db
    .select()
    .from(managedItems)
    .where(where)
    .orderBy(direction(sortColumns[query.sortBy]), asc(sql`lower(${managedItems.name})`), asc(managedItems.id))
    .limit(query.pageSize)
    .offset(query.pageNumber * query.pageSize);
  // Exact: the list's answer has no "more than" form.
  const { totalRecords } = await listTotal(ctx.db, ctx.db.select({ id: managedItems.id }).from(managedItems).where(where), {
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    rowsOnPage: rows.length,
    exact: true,
  });
  return {
    totalRecords,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    data: rows.map((row) => toItem(list, row)),
  };
}

export async function getItem(ctx: SignedInContext, family: ManagedListFamily, id: string): Promise<ManagedItem> {
  const row = await findRow(ctx.db, ctx, family, id);
  return toItem(listOf(family, row.listType), row);
}

export async function createItem(
  ctx: SignedInContext,
  list: ManagedListDefinition,
  input: ManagedItemInput,
): Promise<ManagedItem> {
  const attributes = parseAttributes(list, input.attributes);
  return conflictAsNameTaken(
    ctx.db.transaction(async (tx) => {
      await assertNameFree(tx, ctx, list.listType, input.name);
      const [row] = await tx
        .insert(managedItems)
        .values({
          instanceId: ctx.instanceId,
          listType: list.listType,
          name: input.name,
          attributes,
          isActive: input.isActive,
          sortOrder: input.sortOrder,
        })
        .returning();
      await recordActivity(tx, activity(ctx, 'Created', row!));
      return toItem(list, row!);
    }),
  );
}

export async function updateItem(
  ctx: SignedInContext,
  family: ManagedListFamily,
  id: string,
  input: ManagedItemInput,
): Promise<ManagedItem> {
  return conflictAsNameTaken(
    ctx.db.transaction(async (tx) => {
      const existing = await findRow(tx, ctx, family, id);
      const list = listOf(family, existing.listType);
      const attributes = parseAttributes(list, input.attributes);
      await assertNameFree(tx, ctx, list.listType, input.name, id);
      const [row] = await tx
        .update(managedItems)
        .set({ name: input.name, attributes, isActive: input.isActive, sortOrder: input.sortOrder, updatedAt: new Date() })
        .where(eq(managedItems.id, existing.id))
        .returning();
      await recordActivity(tx, activity(ctx, 'Updated', row!));
      return toItem(list, row!);
    }),
  );
}

/** Soft delete: appointments in a room or medicines on a visit keep pointing at the entry. */
export async function deleteItem(ctx: SignedInContext, family: ManagedListFamily, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const existing = await findRow(tx, ctx, family, id);
    const now = new Date();
    await tx.update(managedItems).set({ deletedAt: now, updatedAt: now }).where(eq(managedItems.id, existing.id));
    await recordActivity(tx, activity(ctx, 'Deleted', existing));
  });
}
