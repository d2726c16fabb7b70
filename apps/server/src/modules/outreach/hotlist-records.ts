import { and, eq, isNull } from 'drizzle-orm';
import type { SignedInContext } from '../../context';
import { hotlists } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';

/** What both halves of hot lists read: a live list, and the raw rows' values as the contracts want them. */

export type Row = Record<string, unknown>;

export const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
export const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
export const nameOf = (first: unknown, last: unknown): string | null => {
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
