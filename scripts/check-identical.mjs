// Proves that this tree's CLI writes byte for byte what a reference commit's CLI writes: `export` (a folder and
// NDJSON on stdout), `stats --json` and `report`, on every `fixtures/*` scenario and on ../shared/corpus when it is
// there. The reference is checked out in a temporary git worktree, installed and built; both CLIs read the same
// inputs (this tree's), each run with a fresh cache folder and a pinned environment, and a second run on a warm
// cache is compared too. Prints the first differences of each scenario; exits 1 on any difference.
//
//   pnpm check:identical [--ref REV] [--keep] [--only SCENARIO]… [--no-warm]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compareRuns, maskBuildDependent } from './identical/compare.mjs';

const { values } = parseArgs({
  options: {
    ref: { type: 'string', default: '504f386' },
    keep: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    'no-warm': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('usage: node scripts/check-identical.mjs [--ref REV] [--keep] [--only SCENARIO]… [--no-warm]');
  process.exit(0);
}

/** Differences printed per scenario; the count of the others is printed after them. */
const SHOWN = 5;
const root = resolve(import.meta.dirname, '..');
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

/** Runs a command to its end with inherited output, stopping the script when it fails. */
function must(command, args, cwd) {
  const run = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', TURBO_TELEMETRY_DISABLED: '1' },
  });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (${run.status})`);
}

const sha = spawnSync('git', ['rev-parse', '--verify', `${values.ref}^{commit}`], {
  cwd: root,
  encoding: 'utf8',
});
if (sha.status !== 0) {
  console.error(`check-identical: ${values.ref} is not a commit`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'cctrail-identical-'));
const refTree = join(work, 'ref');

function cleanUp() {
  if (values.keep) {
    console.log(`kept: ${work} (remove the worktree with: git worktree remove --force ${refTree})`);
    return;
  }
  spawnSync('git', ['worktree', 'remove', '--force', refTree], { cwd: root, stdio: 'ignore' });
  rmSync(work, { recursive: true, force: true });
  spawnSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore' });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

/** The scenarios: each `fixtures/*` folder (laid out like ~/.claude/projects) and the shared corpus. */
function scenarios() {
  const found = readdirSync(join(root, 'fixtures'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ name: entry.name, input: join(root, 'fixtures', entry.name) }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const corpus = resolve(root, '..', 'shared', 'corpus', 'claude-projects');
  if (existsSync(corpus)) found.push({ name: 'corpus', input: corpus });
  return values.only ? found.filter((scenario) => values.only.includes(scenario.name)) : found;
}

/** What each scenario runs: a name, the arguments after the input, and whether it writes the folder `out`. */
const STEPS = [
  { name: 'export', args: ['export', '-o', 'out'], out: true },
  { name: 'export-ndjson', args: ['export', '-o', '-'] },
  { name: 'stats', args: ['stats', '--json'] },
  { name: 'report', args: ['report', '-o', 'out'], out: true },
];

/**
 * Runs one CLI in `dir` with an environment that nothing outside pins: HOME, the caches, time zone, colours.
 * Paths of the run folder in stdout and stderr become `<run>`, so both sides print alike.
 */
function runCli(bin, dir, cache, args) {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, TZ: 'UTC', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
  Object.assign(env, { NO_COLOR: '1', CCTRAIL_CACHE_DIR: cache, XDG_CACHE_HOME: join(home, '.cache') });
  Object.assign(env, { ASTRO_TELEMETRY_DISABLED: '1', CLAUDE_CONFIG_DIR: join(home, '.claude') });
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = { stdout: [], stderr: [] };
    child.stdout.on('data', (chunk) => chunks.stdout.push(chunk));
    child.stderr.on('data', (chunk) => chunks.stderr.push(chunk));
    child.on('error', fail);
    child.on('close', (status) => {
      const alike = (stream) =>
        Buffer.from(Buffer.concat(chunks[stream]).toString('utf8').split(dir).join('<run>'));
      done({ status, stdout: alike('stdout'), stderr: alike('stderr') });
    });
  });
}

/**
 * Runs one step of one scenario on both sides at once: cold, then (unless --no-warm) again in the same folder on
 * the warm cache, which takes the paths that skip work (an export over its own output, cached stats and pages).
 */
async function runStep(scenario, step, sides) {
  const differences = [];
  const passes = values['no-warm'] ? ['cold'] : ['cold', 'warm'];
  for (const pass of passes) {
    const runs = await Promise.all(
      sides.map(async (side) => {
        const dir = join(work, 'runs', scenario.name, step.name, side.name);
        mkdirSync(dir, { recursive: true });
        const result = await runCli(side.bin, dir, join(dir, 'cache'), [...step.args, scenario.input]);
        return { ...result, out: step.out ? join(dir, 'out') : undefined };
      }),
    );
    for (const found of compareRuns(runs[0], runs[1], maskBuildDependent)) {
      differences.push(`${step.name} (${pass}) ${found}`);
    }
  }
  return differences;
}

let failed = false;
try {
  console.log(`== reference ${values.ref} (${sha.stdout.trim().slice(0, 12)}) in ${refTree}`);
  must('git', ['worktree', 'add', '--detach', refTree, sha.stdout.trim()], root);
  must('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'], refTree);
  must('pnpm', ['build', '--output-logs=errors-only'], refTree);
  console.log(`== this tree (${seconds()})`);
  must('pnpm', ['build', '--output-logs=errors-only'], root);
  const sides = [
    { name: 'ref', bin: join(refTree, 'packages', 'cli', 'dist', 'bin.js') },
    { name: 'new', bin: join(root, 'packages', 'cli', 'dist', 'bin.js') },
  ];
  const list = scenarios();
  console.log(
    `== comparing ${list.length} scenarios × ${STEPS.map((s) => s.name).join(', ')} (${seconds()})`,
  );
  for (const scenario of list) {
    const differences = [];
    for (const step of STEPS) differences.push(...(await runStep(scenario, step, sides)));
    if (differences.length === 0) {
      console.log(`identical  ${scenario.name}`);
      continue;
    }
    failed = true;
    console.log(`DIFFERENT  ${scenario.name}: ${differences.length} difference(s)`);
    for (const found of differences.slice(0, SHOWN)) console.log(`  ${found}`);
    if (differences.length > SHOWN) console.log(`  … and ${differences.length - SHOWN} more`);
  }
  console.log(failed ? `outputs differ from ${values.ref}` : `every output is identical to ${values.ref}`);
} catch (error) {
  console.error(`check-identical: ${error.message}`);
  failed = true;
} finally {
  cleanUp();
  console.log(`(${seconds()})`);
}
process.exit(failed ? 1 : 0);
