/**
 * Import boundaries of the house (issue #25 §2, docs/architecture.md "Boundaries the lint checks"), as
 * `no-restricted-imports` settings for eslint.config.js. The lint fails when:
 *
 * - a server module imports another module's routes or internals: only its services (`*.service`), its
 *   published events (`*.events`, `*-events`) or its `index`;
 * - a server module imports the demo seed (`db/seed/`): the seed and the benchmarks sit above the
 *   modules and may call them, never the other way round;
 * - `lib/` or `db/` (the seed apart) import a module: they are the ground floor;
 * - a package imports an app, or the web and the server import each other.
 *
 * Tests are not held to the module rules: they may reach into another module to set up data or check
 * what it wrote. The rules read import specifiers as written (relative paths); `import()` is not checked.
 *
 * There are no per-file exceptions (the `allowedToday` list was emptied, issue #25 §2): a rule shared by
 * modules is published through its module's service or moved to `lib/`, never imported from inside.
 */

/** Another module's file that is neither a service, published events nor the index (`../other/file`). */
const OTHER_MODULE_INTERNAL = String.raw`\.\./(?!\.)[^/]+/(?![^/]*\.service$|[^/]*[.-]events$|events$|index$)[^/]+$`;

const noWeb = {
  group: ['@pathwell/web', '@pathwell/web/*', '**/apps/web/**', '**/web/src/**'],
  message: 'The server never imports the web app (docs/architecture.md, "Boundaries the lint checks").',
};
const noServer = {
  group: ['@pathwell/server', '@pathwell/server/*', '**/apps/server/**', '**/server/src/**'],
  message: 'The web app never imports the server; share through packages/contracts (docs/architecture.md).',
};
const noApps = {
  group: ['@pathwell/server', '@pathwell/server/*', '@pathwell/web', '@pathwell/web/*', '**/apps/**'],
  message: 'Packages never import an app (docs/architecture.md, "Boundaries the lint checks").',
};
const noSeed = {
  regex: String.raw`^(?:\.\./)+(?:db/)?seed(?:/|$)`,
  message: 'Modules never import the demo seed: the seed sits above the modules and calls them.',
};
const noOtherModuleInternals = {
  regex: `^${OTHER_MODULE_INTERNAL}`,
  message:
    'A module imports another module only through its service (*.service), published events (*.events) or index, never its routes or internals (docs/architecture.md).',
};
const noModules = {
  regex: String.raw`(?:^|/)modules(?:/|$)`,
  message: 'lib/ and db/ are the ground floor: they never import a module (docs/architecture.md).',
};

const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

/** Flat-config objects, most general first: for a file, the last object that matches sets the rule. */
export const boundaryConfigs = [
  { files: ['apps/server/**/*.ts'], rules: restrict(noWeb) },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: TESTS,
    rules: restrict(noWeb, noSeed, noOtherModuleInternals),
  },
  {
    files: ['apps/server/src/lib/**/*.ts', 'apps/server/src/db/**/*.ts'],
    ignores: [...TESTS, 'apps/server/src/db/seed/**'],
    rules: restrict(noWeb, noModules),
  },
  { files: ['apps/web/**/*.{ts,tsx}'], rules: restrict(noServer) },
  { files: ['packages/**/*.{ts,tsx}'], rules: restrict(noApps) },
];
