// Sums the vitest JSON reports of every package, and of the repository's own scripts (`test:scripts` at the root),
// into the one line CI reads: `N passed, N failed`.
// A package whose test task ran but left no report (a build or config failure) counts as one failure.
// `--with-pack` adds the installed-package tests (`pnpm test:pack`, report `.vitest-pack.json`), which `.ci/run`
// runs after `pnpm test`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const tested = [{ pkg: '.', script: 'test:scripts' }];
if (process.argv.includes('--with-pack'))
  tested.push({ pkg: '.', script: 'test:pack', file: '.vitest-pack.json' });
for (const group of ['packages', 'apps']) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) tested.push({ pkg: join(group, name), script: 'test' });
}
for (const { pkg, script, file = '.vitest-result.json' } of tested) {
  const manifest = join(pkg, 'package.json');
  if (!existsSync(manifest) || !JSON.parse(readFileSync(manifest, 'utf8')).scripts?.[script]) continue;
  const report = join(pkg, file);
  if (!existsSync(report)) {
    console.error(`${pkg} ${script}: no test report (its test task did not run to the end)`);
    failed += 1;
    continue;
  }
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed += result.numPassedTests ?? 0;
  failed += (result.numFailedTests ?? 0) + (result.success === false && !result.numFailedTests ? 1 : 0);
  skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
