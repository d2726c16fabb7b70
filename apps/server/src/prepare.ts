import { PASSWORD_PATTERN } from '@pathwell/contracts/validation';
import type { Config } from './config';
import { openDatabase, withPrepareLock, type DatabaseHandle } from './db/client';
import { applyMigrations } from './db/migrate';
import { bootstrapFirstManager, isDatabaseEmpty, seedDemo } from './db/seed/demo';
import { withSystemAccess } from './db/tenancy';

type Prepared = DatabaseHandle & { seeded: 'demo' | 'manager' | null };

/** Opens the configured database, applies migrations and fills an empty one (demo or first manager). */
export async function prepareDatabase(config: Config): Promise<Prepared> {
  const handle = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgresql', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: `${config.dataDir}/pglite` },
  );
  const seeded = await withPrepareLock(handle, async () => {
    await applyMigrations(handle);
    return fillIfEmpty(config, handle);
  });
  if (!config.databaseUrl || !config.appDatabaseUrl) return { ...handle, seeded };
  // The owner's connection only migrates; the app runs on its own login, which owns nothing.
  await handle.close();
  return { ...(await openDatabase({ kind: 'postgresql', url: config.appDatabaseUrl })), seeded };
}

async function fillIfEmpty(config: Config, handle: DatabaseHandle): Promise<Prepared['seeded']> {
  if (!(await withSystemAccess(handle.db, 'bootstrap', isDatabaseEmpty))) return null;
  if (config.demoMode) {
    await withSystemAccess(handle.db, 'bootstrap', seedDemo);
    return 'demo';
  }
  if (!config.admin) {
    await handle.close();
    throw new Error('The database is empty: set ADMIN_EMAIL and ADMIN_PASSWORD to create the first System Manager');
  }
  if (!PASSWORD_PATTERN.test(config.admin.password)) {
    await handle.close();
    throw new Error('ADMIN_PASSWORD must be at least 8 characters with 1 uppercase, 1 digit and 1 non alphanumeric character');
  }
  const admin = config.admin;
  await withSystemAccess(handle.db, 'bootstrap', (db) => bootstrapFirstManager(db, admin));
  return 'manager';
}
