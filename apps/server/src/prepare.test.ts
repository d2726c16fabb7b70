import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrl } from '../test/global-setup';
import { loadConfig } from './config';
import { prepareDatabase } from './prepare';

const databaseUrl = process.env.DATABASE_URL;

// Two processes starting at once on one empty PostgreSQL database (a rolling deploy, two replicas):
// without the prepare lock both migrated, both granted on the job queue's schema and failed with
// "tuple concurrently updated", or both seeded. PGlite is one process, so this runs on a server only.
describe.skipIf(!databaseUrl)('two processes preparing one PostgreSQL database at once', () => {
  const name = `pathwell_prepare_test_${process.pid}_${Date.now()}`;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl!) });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl!) });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('migrate one after the other, and only the first seeds the demo clinics', async () => {
    const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: adminUrl(databaseUrl!, name) });
    const prepared = await Promise.all([prepareDatabase(config), prepareDatabase(config), prepareDatabase(config)]);
    try {
      expect(prepared.map((handle) => handle.seeded).sort()).toEqual(['demo', null, null]);
      const { rows } = (await prepared[0]!.raw.executeSql(
        `select count(*)::int as clinics from instances`,
      )) as { rows: { clinics: number }[] };
      const seededAlone = await prepared[1]!.raw.executeSql(`select count(*)::int as users from users where email = 'doctor@pathwell.demo'`);
      expect(rows[0]!.clinics).toBeGreaterThan(0);
      expect(seededAlone.rows).toEqual([{ users: 1 }]);
    } finally {
      await Promise.all(prepared.map((handle) => handle.close()));
    }
  }, 120_000);
});
