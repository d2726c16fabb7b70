import { sql, type SQLWrapper } from 'drizzle-orm';
import { LIST_COUNT_LIMIT } from '@pathwell/contracts/constants';
import type { Database } from '../db/client';
import { rowsOf } from './sql-rows';

interface ListTotal {
  totalRecords: number;
  /** False when `totalRecords` is a lower bound: there are more matches than were counted. */
  totalExact: boolean;
}

/**
 * The total of a paged list without reading every match (issue #10 §1). `matches` selects the matching
 * rows (any columns; `select 1 …` is enough). A page that is not full ends the list, so its total is
 * known without counting; otherwise the count stops after `LIST_COUNT_LIMIT` matches (or after the
 * current page, when that is further), unless `exact` asks for all of them.
 */
export async function listTotal(
  db: Database,
  matches: SQLWrapper,
  page: { pageNumber: number; pageSize: number; rowsOnPage: number; exact?: boolean },
  countLimit = LIST_COUNT_LIMIT,
): Promise<ListTotal> {
  const offset = page.pageNumber * page.pageSize;
  if (page.rowsOnPage > 0 && page.rowsOnPage < page.pageSize) {
    return { totalRecords: offset + page.rowsOnPage, totalExact: true };
  }
  if (page.exact) return { totalRecords: await countOf(db, matches, null), totalExact: true };
  const bound = Math.max(countLimit, offset + page.pageSize);
  const counted = await countOf(db, matches, bound + 1);
  return counted > bound ? { totalRecords: bound, totalExact: false } : { totalRecords: counted, totalExact: true };
}

/** At most `limit` matches counted; `null` counts them all. */
export async function countOf(db: Database, matches: SQLWrapper, limit: number | null): Promise<number> {
  const bounded = limit === null ? sql`${matches}` : sql`${matches} limit ${limit}`;
  const [counted] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from (${bounded}) as matches`);
  return Number(counted?.n ?? 0);
}
