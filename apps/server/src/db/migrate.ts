import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { installJobQueue } from '../jobs/job-queue';
import { migrationsFolder, type DatabaseHandle } from './client';

/**
 * The app's schema, then the job queue's (pg-boss keeps its own versions; decision 0029). It sits above
 * both the connection (`client.ts`) and the queue, which only knows the connection's types: neither
 * imports the other back (decision 0068).
 */
export async function applyMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgresql') await migratePg(handle.db as never, { migrationsFolder });
  else await migratePglite(handle.db as never, { migrationsFolder });
  await installJobQueue(handle);
}
