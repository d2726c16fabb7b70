import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { prepareDatabase } from './prepare';
import { DEMO_PASSWORD, demoUsers } from './db/seed/demo';

const startedAt = performance.now();
const config = loadConfig();
const database = await prepareDatabase(config);
const readDatabase = config.readDatabaseUrl ? await openDatabase({ kind: 'postgresql', url: config.readDatabaseUrl }) : undefined;
const app = await buildApp({ config, database, readDatabase });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => Promise.all([database.close(), readDatabase?.close()]))
      .finally(() => process.exit(0));
  });
}

await app.listen({ port: config.port, host: config.host });
const url = `http://localhost:${(app.server.address() as { port: number }).port}`;
const lines = [
  '',
  `Pathwell is running at ${url}  (API docs: ${url}/api/docs)`,
  `Database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL server'}; started in ${Math.round(performance.now() - startedAt)} ms`,
];
if (config.demoMode) {
  lines.push(`Demo sign-ins (password ${DEMO_PASSWORD}):`);
  for (const user of demoUsers)
    lines.push(`  ${user.email.padEnd(24)} ${user.role}${user.isParent ? ' (parent user, both clinics)' : ''}`);
}
console.log(lines.join('\n'));
