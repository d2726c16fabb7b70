import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run bench:web` (issue #10 §3): Lighthouse 12, mobile preset (its default: Moto G Power, slow 4G,
 * 4x CPU slowdown), against the demo app as `npm start` serves it (built web, embedded database in a
 * temporary folder). Pages: /signin and a patient's ODI link page. Each page runs `--runs` times; the
 * median performance score, LCP, TBT and transferred script bytes are printed and written as JSON.
 *
 * Lighthouse is not a dependency of the project (185 MB); the script runs the pinned version through
 * `npx --yes`, in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium). Build first: `npm run build`.
 */
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    out: { type: 'string', default: 'test-results/reports/bench-web.json' },
  },
});
const RUNS = Number(args.runs);
const LIGHTHOUSE = 'lighthouse@12.8.2';
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const repoRoot = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForHealth(base: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not become healthy in 2 minutes');
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A fresh ODI link for the first demo patient, made the way staff make one. */
async function patientLinkUrl(base: string): Promise<string> {
  const { token } = await json<{ token: string }>(
    await fetch(`${base}/api/users/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'staff@pathwell.demo', password: 'Pathwell#2026' }),
    }),
  );
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const page = await json<{ data: { id: string }[] }>(
    await fetch(`${base}/api/patients/filtered`, { method: 'POST', headers, body: JSON.stringify({}) }),
  );
  const patientId = page.data[0]?.id;
  if (!patientId) throw new Error('the demo clinic has no patient');
  const link = await json<{ url: string }>(
    await fetch(`${base}/api/patient-links`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ patientId, formCode: 1, send: 'none' }),
    }),
  );
  const url = new URL(link.url);
  return `${base}${url.pathname}${url.search}`;
}

interface RunResult {
  score: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  scriptBytes: number;
  totalBytes: number;
}

function lighthouse(url: string, outputPath: string): RunResult {
  const result = spawnSync(
    'npx',
    [
      '--yes',
      LIGHTHOUSE,
      url,
      '--only-categories=performance',
      '--output=json',
      `--output-path=${outputPath}`,
      '--quiet',
      `--chrome-flags=--headless=new --no-sandbox --disable-dev-shm-usage`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROME }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`lighthouse failed for ${url} (exit ${result.status})`);
  const report = JSON.parse(readFileSync(outputPath, 'utf8')) as {
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue?: number; details?: { items?: { resourceType: string; transferSize: number }[] } }>;
  };
  const items = report.audits['resource-summary']?.details?.items ?? [];
  const bytesOf = (type: string) => items.find((item) => item.resourceType === type)?.transferSize ?? 0;
  return {
    score: report.categories.performance.score,
    lcpMs: Math.round(report.audits['largest-contentful-paint']?.numericValue ?? 0),
    tbtMs: Math.round(report.audits['total-blocking-time']?.numericValue ?? 0),
    fcpMs: Math.round(report.audits['first-contentful-paint']?.numericValue ?? 0),
    scriptBytes: bytesOf('script'),
    totalBytes: bytesOf('total'),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pathwell-bench-web-'));
  const server = spawn('npm', ['run', 'start', '-w', '@pathwell/server'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    await waitForHealth(base, server);
    const pages = [
      { name: 'sign-in', url: `${base}/signin` },
      { name: 'patient ODI link', url: await patientLinkUrl(base) },
    ];
    const results: Record<string, RunResult & { runs: RunResult[] }> = {};
    for (const page of pages) {
      const runs: RunResult[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(lighthouse(page.url, path.join(dataDir, `lh-${run}.json`)));
      results[page.name] = {
        score: median(runs.map((run) => run.score)),
        lcpMs: median(runs.map((run) => run.lcpMs)),
        tbtMs: median(runs.map((run) => run.tbtMs)),
        fcpMs: median(runs.map((run) => run.fcpMs)),
        scriptBytes: median(runs.map((run) => run.scriptBytes)),
        totalBytes: median(runs.map((run) => run.totalBytes)),
        runs,
      };
      const r = results[page.name]!;
      console.log(
        `${page.name.padEnd(18)} performance ${r.score.toFixed(2)}  FCP ${r.fcpMs} ms  LCP ${r.lcpMs} ms  TBT ${r.tbtMs} ms  ` +
          `script ${(r.scriptBytes / 1024).toFixed(1)} KiB  total ${(r.totalBytes / 1024).toFixed(1)} KiB  (median of ${RUNS})`,
      );
    }
    mkdirSync(path.dirname(path.resolve(repoRoot, args.out!)), { recursive: true });
    writeFileSync(path.resolve(repoRoot, args.out!), JSON.stringify({ lighthouse: LIGHTHOUSE, runs: RUNS, results }, null, 2));
  } finally {
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
