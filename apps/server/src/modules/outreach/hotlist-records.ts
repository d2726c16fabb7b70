import { and, eq, isNull } from 'drizzle-orm';
import type { SignedInContext } from '../../context';
import { hotlists } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';

/** What both halves of hot lists read: a live list, and the raw rows' values as the contracts want them. */

/** A timestamp as the API answers it (ISO): raw SQL and json_build_object answer PostgreSQL's text. */
export const iso = (value: string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();
export const nameOf = (first: string | null | undefined, last: string | null | undefined): string | null => {
  const name = [first, last]
    .filter((part) => typeof part === 'string' && part.trim() !== '')
    .join(' ')
    .trim();
  return name || null;
};

export async function findList(ctx: SignedInContext, id: string) {
  const [row] = await ctx.db
    .select()
    .from(hotlists)
    .where(and(eq(hotlists.instanceId, ctx.instanceId), eq(hotlists.id, id), isNull(hotlists.deletedAt)));
  if (!row) throw notFound('hotlistNotFound');
  return row;
}

export async function findActiveList(ctx: SignedInContext, id: string) {
  const list = await findList(ctx, id);
  if (list.status !== 'active') throw new AppError('CONFLICT', 'hotlistFinished');
  return list;
}
