// The core API rule: every value `@cctrail/core` exports (from `@cctrail/core`, `/node` or `/archive`) is
// imported by another package of the repository: the CLI or the report (their sources or their tests, which
// use the packages as a user would) or the repository's scripts. Core's own tests reach its modules directly,
// so a value only they use is not part of the API. Types are not checked: the model's types are the contract,
// named or not. check-arch.mjs runs it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The rule's name in check-arch's output. */
export const RULE = 'core-export-unused';

/** Core's public entry points: the subpath a package imports, and the file that defines it. */
const ENTRIES = [
  ['@cctrail/core', 'packages/core/src/index.ts'],
  ['@cctrail/core/node', 'packages/core/src/node/index.ts'],
  ['@cctrail/core/archive', 'packages/core/src/archive/index.ts'],
];

/** Where the users of core's API are. */
const USERS = [
  'packages/cli/src',
  'packages/cli/test',
  'apps/report/src',
  'apps/report/site',
  'apps/report/test',
  'scripts',
];

/**
 * Values read without naming their subpath: the benchmark loads `fileSource` from each build it compares, from
 * whichever entry point that build has (`scripts/bench/builds.mjs`). Each is allowed while that file names it.
 */
const READ_BY_PATH = [['@cctrail/core/node', 'fileSource', 'scripts/bench/builds.mjs']];

/** The names inside the braces of import/export lists (`a`, `type B`, `c as d` → the exported name). */
function listed(braces, { exported }) {
  const names = [];
  for (const raw of braces.split(',')) {
    const item = raw.trim();
    if (item === '' || item.startsWith('type ')) continue;
    const [name, alias] = item.split(/\s+as\s+/);
    names.push(exported ? (alias ?? name).trim() : name.trim());
  }
  return names;
}

/** The values an entry file exports (`export { … } from`, `export function|const|class`), by name. */
export function exportedValues(source) {
  const names = new Set();
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const name of listed(m[1], { exported: true })) names.add(name);
  for (const m of source.matchAll(
    /export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/g,
  ))
    names.add(m[1]);
  return names;
}

/** Every `.ts`, `.mjs`, `.js` and `.astro` file below a folder (node_modules, dist and dot folders skipped). */
function sourcesUnder(folder) {
  if (!existsSync(folder)) return [];
  const out = [];
  const stack = [folder];
  while (stack.length > 0) {
    const dir = stack.pop();
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'dist') continue;
      const path = join(dir, e.name);
      if (e.isDirectory()) stack.push(path);
      else if (/\.(ts|mts|mjs|js|astro)$/.test(e.name)) out.push(path);
    }
  }
  return out;
}

/** The names each of core's subpaths is imported by (`import { a } from '@cctrail/core/x'`, `x.name` of an `import(…)`). */
function importedNames(root) {
  const used = new Map(ENTRIES.map(([subpath]) => [subpath, new Set()]));
  for (const folder of USERS) {
    for (const file of sourcesUnder(join(root, folder))) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes('@cctrail/core')) continue;
      for (const m of text.matchAll(
        /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](@cctrail\/core(?:\/node|\/archive)?)['"]/g,
      ))
        for (const name of listed(m[1], { exported: false })) used.get(m[2])?.add(name);
      // Dynamic imports and namespace imports: any `.name` read off the module counts.
      for (const m of text.matchAll(
        /(?:import\(\s*|\*\s+as\s+\w+\s+from\s+)['"](@cctrail\/core(?:\/node|\/archive)?)['"]/g,
      ))
        for (const ref of text.matchAll(/\.\s*([A-Za-z_$][\w$]*)/g)) used.get(m[1])?.add(ref[1]);
    }
  }
  for (const [subpath, name, file] of READ_BY_PATH) {
    const path = join(root, file);
    if (existsSync(path) && new RegExp(`\\b${name}\\b`).test(readFileSync(path, 'utf8')))
      used.get(subpath).add(name);
  }
  return used;
}

/** The values core exports that no other package imports, as `{ from, name }`. */
export function unusedCoreExports(root) {
  const used = importedNames(root);
  const out = [];
  for (const [subpath, file] of ENTRIES) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    for (const name of exportedValues(readFileSync(path, 'utf8')))
      if (!used.get(subpath).has(name)) out.push({ from: relative(root, path), name: `${subpath} ${name}` });
  }
  return out;
}
