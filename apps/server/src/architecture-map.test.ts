import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The map is checked, not hoped for (issue #25 §5): `docs/architecture.md` names every folder of the
 * server (its top-level folders in "The house", each module in "Server modules") and no folder that
 * does not exist; `eslint.boundaries.js` exempts no single file from the import boundaries; and no
 * two server modules import each other, directly or around a loop (type-only imports count too).
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

/** Every non-test source file under `folder`, recursively. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Module → the other modules its files import (relative specifiers, type-only imports included). */
function moduleGraph(modulesFolder: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const module of foldersOf(modulesFolder)) {
    const targets = new Set<string>();
    for (const file of sourceFiles(join(modulesFolder, module))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.[^']+)'/g)) {
        const target = join(dirname(file), match[1]!);
        if (!target.startsWith(modulesFolder + '/')) continue;
        const other = target.slice(modulesFolder.length + 1).split('/')[0]!;
        if (other !== module) targets.add(other);
      }
    }
    graph.set(module, targets);
  }
  return graph;
}

/** One loop per strongly connected group of modules (Tarjan), each listed from its smallest name. */
function moduleLoops(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) loops.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops;
}

describe('the module graph (issue #25 §1)', () => {
  it('finds a loop when one exists', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(moduleLoops(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('has no import loop between server modules', () => {
    const graph = moduleGraph(join(src, 'modules'));
    expect(graph.size).toBeGreaterThan(30);
    expect(moduleLoops(graph)).toEqual([]);
  });
});
