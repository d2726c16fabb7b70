import { defineConfig } from 'vitest/config';

/**
 * Vitest's default on a run is one worker fewer than the machine's cores: a single worker on CI's two.
 * The API tests on a PostgreSQL server spend much of their time waiting on the server's own processes,
 * and PGlite's files are independent, so both stages use every core (and a little more for PostgreSQL;
 * three test apps stay well under its 100 connections). VITEST_MAX_WORKERS overrides it.
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS) || (process.env.DATABASE_URL ? 3 : 2);

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      { test: { name: 'contracts', include: ['packages/*/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web',
    ],
  },
});
