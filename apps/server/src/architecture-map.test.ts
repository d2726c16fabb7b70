import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The map is checked, not hoped for (issue #25 §5): `docs/architecture.md` names every folder of the
 * server (its top-level folders in "The house", each module in "Server modules") and no folder that
 * does not exist; `eslint.boundaries.js` exempts no single file from the import boundaries.
 */
const src = dirname(fileURLToPath(import.meta.url));
const root = join(src, '../../..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

const foldersOf = (path: string) =>
  readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('__'))
    .map((entry) => entry.name)
    .sort();

/** The lines of a `## title` section, up to the next `## `. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  expect(start, `docs/architecture.md has a "## ${title}" section`).toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

describe('the architecture map', () => {
  it('names each top-level folder of apps/server/src in "The house", and no other', () => {
    const house = section('The house');
    // The server's part of the drawing: from the apps/server line to the apps/web line.
    const server = house.slice(house.indexOf('apps/server'), house.indexOf('\napps/web'));
    const named = [...new Set([...server.matchAll(/\bsrc\/([\w-]+)\//g)].map((match) => match[1]!))].sort();
    expect(named).toEqual(foldersOf(src));
  });

  it('describes each server module folder in "Server modules", and no other', () => {
    const named = [...section('Server modules').matchAll(/^- `([\w-]+)\/`/gm)].map((match) => match[1]!);
    expect(new Set(named).size, 'each module once').toBe(named.length);
    expect([...named].sort()).toEqual(foldersOf(join(src, 'modules')));
  });

  it('grants no file an exception to the import boundaries (the allowedToday list was emptied)', async () => {
    const { boundaryConfigs } = (await import(pathToFileURL(join(root, 'eslint.boundaries.js')).href)) as {
      boundaryConfigs: { files: string[] }[];
    };
    // Each boundary applies to a whole floor by glob; an entry for one named file would exempt it.
    const exempted = boundaryConfigs.flatMap((config) => config.files).filter((glob) => !glob.includes('*'));
    expect(exempted, 'publish the import through a service or move the shared helper to lib/').toEqual([]);
  });
});
