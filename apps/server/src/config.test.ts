import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { applyMigrations } from './db/migrate';
import { seedDemo } from './db/seed/demo';
import { prepareDatabase } from './prepare';
import { users } from './db/schema';

const secret = 'a-production-secret-of-at-least-32-chars';

describe('configuration', () => {
  it('production refuses to start without APP_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('APP_SECRET is required when NODE_ENV=production');
  });

  it('production has no demo mode; development has', () => {
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: secret }).demoMode).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'pw-cfg-')) }).demoMode).toBe(true);
  });

  it('PORT and DATA_DIR override the defaults, and a bad PORT is refused', () => {
    const config = loadConfig({ NODE_ENV: 'production', APP_SECRET: secret, PORT: '4100', DATA_DIR: '/tmp/pw-x' });
    expect(config.port).toBe(4100);
    expect(config.dataDir).toBe('/tmp/pw-x');
    expect(config.publicUrl).toBe('http://localhost:4100');
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: secret, PORT: 'abc' })).toThrow(/PORT/);
  });
});

// Each of these migrates a new embedded database (one also seeds the demo): seconds alone, a minute or
// more on a machine busy with the rest of the suite. A limit, not a timing assertion.
const FRESH_DATABASE_MS = 180_000;

describe('start-up on an empty embedded database', () => {
  it(
    'in production creates the first System Manager from ADMIN_EMAIL and ADMIN_PASSWORD, and no demo data',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'pw-prod-'));
      try {
        const env = {
          NODE_ENV: 'production',
          APP_SECRET: secret,
          DATA_DIR: dataDir,
          ADMIN_EMAIL: 'Boss@Clinic.example',
          ADMIN_PASSWORD: 'First#Admin1',
        };
        const prepared = await prepareDatabase(loadConfig(env));
        expect(prepared.seeded).toBe('manager');
        const rows = await prepared.db.select().from(users);
        expect(rows.map((row) => [row.email, row.role])).toEqual([['boss@clinic.example', 4]]);
        await prepared.close();
        const again = await prepareDatabase(loadConfig(env));
        expect(again.seeded).toBeNull();
        await again.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    FRESH_DATABASE_MS,
  );

  it(
    'in production refuses an empty database without ADMIN_EMAIL and ADMIN_PASSWORD',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'pw-prod-'));
      try {
        await expect(
          prepareDatabase(loadConfig({ NODE_ENV: 'production', APP_SECRET: secret, DATA_DIR: dataDir })),
        ).rejects.toThrow(/ADMIN_EMAIL and ADMIN_PASSWORD/);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    FRESH_DATABASE_MS,
  );
});

describe('logs', () => {
  it(
    'never contain the password, the bearer token or a patient-link token',
    async () => {
      const lines: string[] = [];
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      const handle = await openDatabase({ kind: 'pglite', dataDir: undefined });
      await applyMigrations(handle);
      await seedDemo(handle.db);
      const config = loadConfig({ NODE_ENV: 'test', APP_SECRET: secret, LOG_LEVEL: 'trace', WEB_DIST: '/nonexistent' });
      const app = await buildApp({ config, database: handle, logStream });
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/users/authenticate',
        payload: { email: 'staff@pathwell.demo', password: 'Pathwell#2026' },
      });
      const token = signIn.json<{ token: string }>().token;
      await app.inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } });
      await app.inject({ method: 'GET', url: '/api/session', headers: { authorization: 'Bearer not-a-real-token' } });
      const linkToken = 'Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE';
      await app.inject({ method: 'GET', url: `/api/patient-links/${linkToken}/status` });
      await app.inject({ method: 'GET', url: `/patients/phq9/${linkToken}` });
      await app.close();
      await handle.close();
      const output = lines.join('');
      expect(output.length).toBeGreaterThan(0);
      expect(output).not.toContain('Pathwell#2026');
      expect(output).not.toContain(token);
      expect(output).not.toContain('not-a-real-token');
      expect(output).not.toContain(linkToken);
      expect(output).toContain('/api/patient-links/[token]/status');
    },
    FRESH_DATABASE_MS,
  );
});
