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
 */

/** Another module's file that is neither a service, published events nor the index (`../other/file`). */
const OTHER_MODULE_INTERNAL = String.raw`\.\./(?!\.)[^/]+/(?![^/]*\.service$|[^/]*[.-]events$|events$|index$)[^/]+$`;

/**
 * Imports that break a boundary today and are allowed for the file that has them, until the work that
 * removes them lands (issue #25 §1-§3). This list may only shrink: `architecture-map.test.ts` fails when
 * an entry is no longer needed (the file is gone or no longer has the import), so the entry goes with it.
 * Keys are paths from the repository root; values are the specifiers exactly as imported.
 */
export const allowedToday = {
  // Not yet assigned: which instrument wordings a clinic may use is read by five modules; it belongs
  // in form-responses' service (or lib/).
  'apps/server/src/modules/instance-settings/instance-settings.service.ts': ['../form-responses/wording-availability'],
  'apps/server/src/modules/intake/intake-plans.service.ts': ['../form-responses/wording-availability'],
  'apps/server/src/modules/intake/intake-link.ts': ['../form-responses/wording-availability'],
  // Not yet assigned: the appointment status rules, published through appointments' service.
  'apps/server/src/modules/intake/intake-check-in.service.ts': ['../appointments/appointment-status'],
  'apps/server/src/modules/pathways/pathway-runner.ts': ['../form-responses/wording-availability'],
  'apps/server/src/modules/pathways/pathways.service.ts': ['../form-responses/wording-availability'],
  'apps/server/src/modules/patient-links/patient-links.service.ts': ['../form-responses/wording-availability'],

  // The PDF writers move to lib/ (§2, `rules`).
  'apps/server/src/modules/reports/spotlight.service.ts': ['../intake/consent-pdf'],
};

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A regex that matches `pattern` unless the specifier is one of `allowed`. */
const except = (pattern, allowed) =>
  allowed.length === 0 ? `^${pattern}` : `^(?!(?:${allowed.map(escape).join('|')})$)${pattern}`;

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
const noSeed = (allowed) => ({
  regex: except(String.raw`(?:\.\./)+(?:db/)?seed(?:/|$)`, allowed),
  message: 'Modules never import the demo seed: the seed sits above the modules and calls them.',
});
const noOtherModuleInternals = (allowed) => ({
  regex: except(OTHER_MODULE_INTERNAL, allowed),
  message:
    'A module imports another module only through its service (*.service), published events (*.events) or index, never its routes or internals (docs/architecture.md).',
});
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
    rules: restrict(noWeb, noSeed([]), noOtherModuleInternals([])),
  },
  {
    files: ['apps/server/src/lib/**/*.ts', 'apps/server/src/db/**/*.ts'],
    ignores: [...TESTS, 'apps/server/src/db/seed/**'],
    rules: restrict(noWeb, noModules),
  },
  { files: ['apps/web/**/*.{ts,tsx}'], rules: restrict(noServer) },
  { files: ['packages/**/*.{ts,tsx}'], rules: restrict(noApps) },
  ...Object.entries(allowedToday).map(([file, allowed]) => ({
    files: [file],
    rules: restrict(noWeb, noSeed(allowed), noOtherModuleInternals(allowed)),
  })),
];
