/**
 * `npm run bench:start` (issue #26 §7): how long `npm start` takes to answer `/api/health`, on the
 * embedded database in a temporary folder. First run: an empty database (migrations and the demo seed),
 * and the web build when its sources changed since the last one. Warm run: the same folder again, as a
 * restart. Install is excluded (run it after `npm ci`). Prints seconds for each.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'pathwell-start-'));
const port = 3400 + Math.floor(Math.random() * 400);

async function timeToHealth(label: string) {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    while (true) {
      if (performance.now() - started > 600_000) throw new Error(`${label}: no answer from /api/health in 10 minutes`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(`${label.padEnd(48)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

await timeToHealth('first run (empty database, demo seed)');
await timeToHealth('warm start (restart on the same data)');
rmSync(dataDir, { recursive: true, force: true });
