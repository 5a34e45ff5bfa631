// Measures what `npm install cctrail` costs a user, beside ccusage in the same run: the installed size of the packed
// tarballs, and the time of a cold install (an empty project, both from npm's cache: a first install of each,
// not timed, fills it), with the load average of the machine before and after. Usage, on a built tree: `node scripts/pack/measure-install.mjs [--runs N] [--json]
// [--check]`; `--check` exits with 1 when a budget is missed (size ≤ 40 MB; time no longer than ccusage's).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SIZE_BUDGET } from './budget.mjs';
import { serveRegistry } from './local-registry.mjs';
import { installedSize, npmInstall, packPackages, ROOT } from './pack.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs));
const work = mkdtempSync(join(tmpdir(), 'cctrail-measure-'));
const cache = join(work, 'npm-cache');
let registry = null;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  const tarballs = packPackages(join(work, 'tarballs'));
  // cctrail comes from a registry too, as it will for users: one on this machine serving the tarballs.
  registry = await serveRegistry(tarballs);
  const ccusageVersion = execFileSync('npm', ['view', 'ccusage', 'version', '--cache', cache], {
    encoding: 'utf8',
  }).trim();
  const cli = JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8'));
  const contenders = {
    cctrail: { specs: [`cctrail@${cli.version}`], registry: registry.url },
    ccusage: { specs: [`ccusage@${ccusageVersion}`] },
  };
  // Fills npm's cache with everything each install needs; measures the installed size.
  const sizes = {};
  for (const [name, { specs, registry: from }] of Object.entries(contenders)) {
    const dir = join(work, `${name}-warm`);
    await npmInstall(dir, specs, { cache, ...(from ? { registry: from } : {}) });
    sizes[name] = installedSize(join(dir, 'node_modules'));
  }
  // Cold installs, taken in turns so that both see the same machine, each first in every other run.
  const times = { cctrail: [], ccusage: [] };
  const load = [loadavg()[0]];
  for (let run = 0; run < runs; run++) {
    const order = Object.entries(contenders);
    if (run % 2 === 1) order.reverse();
    for (const [name, { specs, registry: from }] of order) {
      const dir = join(work, `${name}-${run}`);
      times[name].push(await npmInstall(dir, specs, { cache, ...(from ? { registry: from } : {}) }));
      rmSync(dir, { recursive: true, force: true });
    }
  }
  load.push(loadavg()[0]);
  const result = {
    runs,
    loadAverage: load.map((l) => Math.round(l * 100) / 100),
    ccusageVersion,
    cctrail: {
      bytes: sizes.cctrail.bytes,
      packages: sizes.cctrail.packages,
      medianMs: Math.round(median(times.cctrail)),
      ms: times.cctrail.map(Math.round),
    },
    ccusage: {
      bytes: sizes.ccusage.bytes,
      packages: sizes.ccusage.packages,
      medianMs: Math.round(median(times.ccusage)),
      ms: times.ccusage.map(Math.round),
    },
  };
  const sizeOk = result.cctrail.bytes <= SIZE_BUDGET;
  const timeOk = result.cctrail.medianMs <= result.ccusage.medianMs;
  if (values.json) console.log(JSON.stringify({ ...result, sizeOk, timeOk }, null, 2));
  else {
    const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
    const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `cctrail: ${mb(result.cctrail.bytes)} installed in ${result.cctrail.packages.length} packages; cold install ${s(result.cctrail.medianMs)} (median of ${runs}: ${result.cctrail.ms.map(s).join(', ')})`,
    );
    console.log(
      `ccusage ${ccusageVersion}: ${mb(result.ccusage.bytes)} in ${result.ccusage.packages.length} packages; cold install ${s(result.ccusage.medianMs)} (median of ${runs}: ${result.ccusage.ms.map(s).join(', ')})`,
    );
    console.log(
      `load average (1 min) ${result.loadAverage.join(' at the start, ')} at the end, on ${availableParallelism()} cores`,
    );
    console.log(
      `budgets: size ${mb(result.cctrail.bytes)} ≤ 40 MB ${sizeOk ? 'met' : 'MISSED'}; time ${s(result.cctrail.medianMs)} ≤ ccusage's ${s(result.ccusage.medianMs)} ${timeOk ? 'met' : 'MISSED'}`,
    );
  }
  if (values.check && !(sizeOk && timeOk)) process.exitCode = 1;
} finally {
  await registry?.close();
  rmSync(work, { recursive: true, force: true });
}
