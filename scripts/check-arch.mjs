// The architecture check: dependency-cruiser with the rules of .dependency-cruiser.cjs on the sources of every
// package and app, the import rule of the report's `.astro` components (check-site-imports.mjs), the size of
// hand-written files (check-size.mjs), the rules of browser code (check-browser.mjs) and that every value core
// exports has a user in another package (check-core-exports.mjs). Prints every violation
// as `error <rule>: <from> → <to>` and exits 1 on any.
//
//   node scripts/check-arch.mjs [ROOT]
//
// ROOT is the tree to check (default: this repository), always with this repository's rules. Imports of
// @cctrail/* packages resolve to their built entry points: build first.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { browserViolations } from './check-browser.mjs';
import { RULE as CORE_EXPORT_RULE, unusedCoreExports } from './check-core-exports.mjs';
import { RULE, siteImportViolations } from './check-site-imports.mjs';
import { MAX_LINES, oversizedFiles } from './check-size.mjs';

const repository = resolve(import.meta.dirname, '..');

/** The folders dependency-cruiser reads: `src` of every package and app, and the `site` of apps. */
function cruisedFolders(root) {
  const folders = [];
  for (const group of ['packages', 'apps']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group)).sort()) {
      for (const folder of group === 'apps' ? ['src', 'site'] : ['src']) {
        if (existsSync(join(root, group, name, folder))) folders.push(`${group}/${name}/${folder}`);
      }
    }
  }
  return folders;
}

/** dependency-cruiser's violations in a tree, as `{rule, text}` (a cycle's text is its whole loop). */
function cruise(root) {
  const folders = cruisedFolders(root);
  if (folders.length === 0) return [];
  const bin = join(repository, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const config = join(repository, '.dependency-cruiser.cjs');
  const run = spawnSync(process.execPath, [bin, '--config', config, '--output-type', 'json', ...folders], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  let result;
  try {
    result = JSON.parse(run.stdout);
  } catch {
    throw new Error(`dependency-cruiser failed (${run.status}):\n${run.stderr}`);
  }
  return result.summary.violations.map((violation) => ({
    rule: violation.rule.name,
    text: violation.cycle
      ? `${violation.from} → ${violation.cycle.map((step) => step.name).join(' → ')}`
      : `${violation.from} → ${violation.unresolvedTo === violation.to ? violation.to : `${violation.to} (${violation.unresolvedTo})`}`,
  }));
}

/** Every violation of the architecture rules in the tree at `root`, in the order found. */
export function violations(root) {
  return [
    ...cruise(root),
    ...siteImportViolations(root).map(({ from, to }) => ({ rule: RULE, text: `${from} → ${to}` })),
    ...unusedCoreExports(root).map(({ from, name }) => ({
      rule: CORE_EXPORT_RULE,
      text: `${from}: ${name} is imported by no other package`,
    })),
    ...oversizedFiles(root).map(({ file, lines }) => ({
      rule: 'source-file-size',
      text: `${file} has ${lines} lines (at most ${MAX_LINES})`,
    })),
    ...browserViolations(root),
  ];
}

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const errors = violations(resolve(positionals[0] ?? repository));
for (const { rule, text } of errors) console.error(`  error ${rule}: ${text}`);
if (errors.length > 0) {
  console.error(`check-arch: ${errors.length} violation(s) of the architecture rules`);
  process.exit(1);
}
console.log('check-arch: the architecture rules hold');
