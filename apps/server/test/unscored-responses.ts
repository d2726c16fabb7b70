import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type Database } from '../src/db/client';

/**
 * Runs the clearing statement of migration 0029 (decision 0067) again, over rows a test has just stored
 * the way a response answered on neutral labels was stored before it (scores and all): so a test of a
 * screen or report sees exactly what the migration leaves behind, and fails if the reader looks past it.
 */
export async function clearScoresAnsweredWithoutWording(db: Database): Promise<void> {
  const file = readFileSync(path.join(migrationsFolder, '0029_unscored-responses.sql'), 'utf8');
  const update = file.split('--> statement-breakpoint').find((statement) => /\bUPDATE "form_responses"/.test(statement));
  if (!update) throw new Error('migration 0029 has no UPDATE of form_responses');
  await db.execute(sql.raw(update));
}
