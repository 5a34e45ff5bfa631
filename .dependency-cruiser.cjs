// The architecture rules of cctrail, checked by dependency-cruiser (`pnpm lint:arch`; see ARCHITECTURE.md).
// Paths are relative to the repository root. Rules on folders that do not exist yet match nothing.
// `.astro` components are not parsed by dependency-cruiser: scripts/check-site-imports.mjs checks them.
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/** Escapes a path for a regular expression. */
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The files a package's `exports` map points at for the given subpaths (all conditions), as anchored regular
 * expressions: what an import of the package's public entry points resolves to.
 */
function entryPoints(folder, subpaths) {
  const manifest = join(folder, 'package.json');
  if (!existsSync(manifest)) return [];
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8'));
  const targets = [];
  const collect = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  for (const subpath of subpaths(Object.keys(exports ?? {}))) collect(exports[subpath]);
  return targets.map((target) => `^${literal(join(folder, target))}$`);
}

const coreEntries = entryPoints('packages/core', (keys) => keys.filter((key) => !key.includes('*')));
const reportIndex = entryPoints('apps/report', () => ['.']);

/** The stages of core in their order: a stage never imports a later one. */
const STAGES = [
  { name: 'read', path: 'read/' },
  { name: 'normalize', path: 'normalize/' },
  { name: 'graph', path: 'graph/' },
  { name: 'analyses', path: 'analyses/' },
  { name: 'session', path: 'session\\.ts$' },
  { name: 'archive', path: 'archive/' },
];
const core = (path) => `^packages/core/src/${path}`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No module depends on itself through others, in any package (type-only imports count).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-nothing-of-ours',
      severity: 'error',
      comment: '@cctrail/core is the bottom layer: it imports no other package of this repository.',
      from: { path: '^packages/core/' },
      to: { path: ['^(packages/(?!core/)|apps/)', '^(@cctrail/|cctrail($|/))'] },
    },
    {
      name: 'report-imports-core-only',
      severity: 'error',
      comment: "The report reads the archive and @cctrail/core's public entry points, nothing else of ours.",
      from: { path: '^apps/report/' },
      to: {
        path: ['^(packages/|apps/(?!report/))', '^(@cctrail/(?!core($|/))|cctrail($|/))'],
        pathNot: [...coreEntries, '^@cctrail/core$'],
      },
    },
    {
      name: 'cli-imports-core-and-report-index',
      severity: 'error',
      comment:
        "The CLI uses @cctrail/core's public entry points and @cctrail/report's index, no subpath of it.",
      from: { path: '^packages/cli/' },
      to: {
        path: ['^(packages/(?!cli/)|apps/)', '^@cctrail/report/'],
        pathNot: [...coreEntries, ...reportIndex],
      },
    },
    ...STAGES.slice(0, -1).map((stage, index) => ({
      name: `core-stage-order-${stage.name}`,
      severity: 'error',
      comment: `Core's stages run read → normalize → graph → analyses → session.ts → archive: ${stage.name} imports no later stage.`,
      from: { path: core(stage.path) },
      to: { path: STAGES.slice(index + 1).map((later) => core(later.path)) },
    })),
    {
      name: 'core-lean-users',
      severity: 'error',
      comment:
        'The structure-only strategy (lean/) is used by read/, archive/ and session.ts only, never by normalize/.',
      from: {
        path: '^packages/core/src/',
        pathNot: [core('lean/'), ...['read/', 'archive/', 'session\\.ts$'].map(core)],
      },
      to: { path: core('lean/') },
    },
    {
      name: 'core-main-entry-without-node',
      severity: 'error',
      comment:
        'Node file reading and discovery (src/node/) are behind @cctrail/core/node, never reached from the main entry.',
      from: { path: core('index\\.ts$') },
      to: { path: core('node/'), reachable: true },
    },
    {
      name: 'core-main-entry-without-archive',
      severity: 'error',
      comment:
        "What spans sessions (src/archive/: an archive's files and index, totals, cost, statistics) is behind @cctrail/core/archive, never reached from the main entry.",
      from: { path: core('index\\.ts$') },
      to: { path: core('archive/'), reachable: true },
    },
    {
      name: 'core-io-only-in-node',
      severity: 'error',
      comment:
        "Core does no I/O of its own outside src/node/: the main entry's modules take lines and return data.",
      from: { path: '^packages/core/src/', pathNot: core('node/') },
      to: {
        dependencyTypes: ['core'],
        path: '^(node:)?(fs|fs/promises|child_process|worker_threads|net|http|https|readline)$',
      },
    },
    {
      name: 'report-views-never-build',
      severity: 'error',
      comment:
        "The report's view models (src/views/) are pure: they never import its build machinery (src/build/).",
      from: { path: '^apps/report/src/views/' },
      to: { path: '^apps/report/src/build/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '(^|/)dist/'] },
    exclude: { path: ['(^|/)test/', '\\.test\\.ts$', '(^|/)\\.astro/'] },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.d.ts', '.js', '.mjs'],
    },
  },
};
