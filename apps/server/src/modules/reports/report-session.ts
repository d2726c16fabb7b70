import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

/**
 * Turns PostgreSQL's JIT compilation off for the rest of the report's transaction (decision 0046
 * "Performance", issue #14 §5). A report statement over a large clinic is costed far above
 * `jit_above_cost`, so PostgreSQL compiles (inlines and optimises) it with LLVM before running it; at
 * 1,000,000 responses that alone took 1.1–4.5 s, more than running the statement, whose work is index
 * lookups per patient that JIT does not speed up. One statement per request, transaction-local
 * (`set_config(…, true)`), so nothing carries over to the next user of the pooled connection.
 */
export async function withoutJit(db: Database): Promise<void> {
  await db.execute(sql`select set_config('jit', 'off', true)`);
}
