import type { SQL } from 'drizzle-orm';
import type { Database } from '../db/client';

/**
 * The rows of a raw SQL statement, for queries the typed builder cannot express (reports keep raw
 * SQL, decision 0044). Drizzle types `execute`'s answer by driver; PGlite and node-postgres both
 * answer `{ rows }`, so this is the one place that says so. `Row` is the caller's promise of the
 * selected columns (snake_case, as PostgreSQL names them): name it where the query is written.
 */
export async function rowsOf<Row extends object = Record<string, unknown>>(db: Database, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as { rows: Row[] };
  return result.rows;
}
