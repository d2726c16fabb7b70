// `npm start` builds the web app only when what it is built from changed since the last build
// (issue #26 §7): a restart then starts in seconds, and two starts from one checkout do not both write
// apps/web/dist (the second waits for the first, then finds the build fresh).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');
const stampFile = path.join(dist, '.source-hash');
const lock = path.join(root, 'apps/web/.build-lock');

/** Everything the web bundle is built from: its sources, the shared packages and the lock file. */
const inputs = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/patient.html',
  'apps/web/postcss.config.cjs',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'packages/contracts/src',
  'packages/instruments/src',
  'package-lock.json',
];

function* filesUnder(relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  if (statSync(full).isFile()) return yield relative;
  for (const entry of readdirSync(full, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules' || entry.name.endsWith('.test.ts') || entry.name.endsWith('.test.tsx')) continue;
    yield* filesUnder(path.join(relative, entry.name));
  }
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of filesUnder(input))
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(root, file)));
  }
  return hash.digest('hex');
}

const fresh = (hash) => existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === hash;

const wanted = sourceHash();
if (fresh(wanted) && !process.argv.includes('--force')) {
  console.log('web app: built from these sources already (apps/web/dist)');
  process.exit(0);
}

/** The lock's holder is gone (a build stopped with Ctrl-C or killed leaves the folder behind). */
function abandoned() {
  const owner = Number(readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }).trim());
  if (!owner) return statSync(lock).mtimeMs < Date.now() - 5_000;
  try {
    process.kill(owner, 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH';
  }
}

const waitUntil = Date.now() + 10 * 60_000;
while (true) {
  try {
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'pid'), String(process.pid));
    break;
  } catch {
    if (existsSync(lock) && abandoned()) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > waitUntil) {
      console.error(`web app: another build has held ${lock} for 10 minutes; remove it if no build is running`);
      process.exit(1);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    rmSync(lock, { recursive: true, force: true });
    process.exit(130);
  });
}
try {
  if (fresh(wanted) && !process.argv.includes('--force')) {
    console.log('web app: built by the start that ran beside this one');
  } else {
    console.log('web app: sources changed since the last build; building');
    const build = spawnSync('npm', ['run', 'build', '-w', '@pathwell/web'], { cwd: root, stdio: 'inherit' });
    if (build.status === 0) writeFileSync(stampFile, `${wanted}\n`);
    else process.exitCode = build.status ?? 1;
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
