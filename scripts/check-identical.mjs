// Proves that this tree's CLI writes byte for byte what a reference commit's CLI writes: `export` (a folder and
// NDJSON on stdout), `stats --json` and `report`, on every `fixtures/*` scenario and on ../shared/corpus when it is
// there. The reference is checked out in a temporary git worktree, installed and built; both CLIs read the same
// inputs (this tree's), each run with a fresh cache folder and a pinned environment, and a second run on a warm
// cache is compared too. Prints the first differences of each scenario; exits 1 on any difference.
//
// A reference older than the outputs' last intended change comes with a reviewed list of the differences it is
// known to have, `scripts/identical/expected-<first 7 hex of its commit>.mjs` (groups, each justified): those are
// removed and counted by group, and every other difference still fails (--no-expected compares bytes only).
// --ref-tree uses a checkout of the reference already built, --new-tree a built checkout in place of this tree
// (to compare two commits); --step runs only the named steps; --from judges again the runs a --keep left.
//
//   pnpm check:identical [--ref REV] [--ref-tree DIR] [--new-tree DIR] [--from DIR] [--keep]
//                        [--only SCENARIO]… [--step STEP]… [--no-warm] [--no-expected]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Tally } from './identical/expected.mjs';
import { judgeRuns, keepRun, keptRuns } from './identical/judge.mjs';

const { values } = parseArgs({
  options: {
    ref: { type: 'string', default: '504f386' },
    'ref-tree': { type: 'string' },
    'new-tree': { type: 'string' },
    step: { type: 'string', multiple: true },
    from: { type: 'string' },
    'no-expected': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    'no-warm': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(
    'usage: node scripts/check-identical.mjs [--ref REV] [--ref-tree DIR] [--new-tree DIR] [--from DIR] ' +
      '[--keep] [--only SCENARIO]… [--step STEP]… [--no-warm] [--no-expected]',
  );
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
const work = values.from ? resolve(values.from) : mkdtempSync(join(tmpdir(), 'cctrail-identical-'));
/** The reference checkout: one made here (removed at the end), or one given already built with --ref-tree. */
const refTree = values['ref-tree'] ? resolve(values['ref-tree']) : join(work, 'ref');
/** The side compared with it: this tree, or a built checkout given with --new-tree (two commits compared). */
const newTree = values['new-tree'] ? resolve(values['new-tree']) : root;

function cleanUp() {
  if (values.from) return;
  if (values.keep) {
    console.log(`kept: ${work}`);
    if (!values['ref-tree']) console.log(`remove the worktree with: git worktree remove --force ${refTree}`);
    return;
  }
  if (!values['ref-tree']) {
    spawnSync('git', ['worktree', 'remove', '--force', refTree], { cwd: root, stdio: 'ignore' });
  }
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
  { name: 'export-redact', args: ['export', '--redact', '-o', 'out'], out: true },
  { name: 'export-ndjson-redact', args: ['export', '--redact', '-o', '-'] },
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
      const result = { status, stdout: alike('stdout'), stderr: alike('stderr') };
      keepRun(dir, result);
      done(result);
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
    differences.push(...judgeRuns(`${scenario.name} ${step.name} (${pass})`, runs, expected, step.name));
  }
  return differences;
}

/** A checkout given with --ref-tree (at `commit`) or --new-tree must be unmodified and built. */
function checkTree(option, dir, commit) {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout?.trim();
  if (commit && head !== commit) throw new Error(`${option} ${dir} is at ${head}, not ${commit}`);
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (status.stdout.trim() !== '') throw new Error(`${option} ${dir} has changes:\n${status.stdout}`);
  if (!existsSync(join(dir, 'packages', 'cli', 'dist', 'bin.js'))) {
    throw new Error(`${option} ${dir} is not built (pnpm install && pnpm build there)`);
  }
  return head;
}

/** The reviewed differences of the reference, when it has a list and --no-expected is not given. */
async function expectedOf(commit) {
  const file = join(root, 'scripts', 'identical', `expected-${commit.slice(0, 7)}.mjs`);
  if (values['no-expected'] || !existsSync(file)) return null;
  const { GROUPS } = await import(file);
  console.log(`== ${GROUPS.length} groups of expected differences from ${file.slice(root.length + 1)}`);
  return { groups: GROUPS, tally: new Tally() };
}

/** Prints one scenario's unexplained differences; returns whether it had any. */
function printScenario(name, differences) {
  if (differences.length === 0) {
    console.log(`identical  ${name}${expected ? ' (but for the expected differences)' : ''}`);
    return false;
  }
  console.log(`DIFFERENT  ${name}: ${differences.length} difference(s)`);
  for (const found of differences.slice(0, SHOWN)) console.log(`  ${found}`);
  if (differences.length > SHOWN) console.log(`  … and ${differences.length - SHOWN} more`);
  return true;
}

/** Runs every scenario on both sides and judges each step. */
async function runScenarios() {
  console.log(`== reference ${values.ref} (${sha.stdout.trim().slice(0, 12)}) in ${refTree}`);
  if (values['ref-tree']) checkTree('--ref-tree', refTree, sha.stdout.trim());
  else {
    must('git', ['worktree', 'add', '--detach', refTree, sha.stdout.trim()], root);
    must('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'], refTree);
    must('pnpm', ['build', '--output-logs=errors-only'], refTree);
  }
  if (values['new-tree']) {
    const head = checkTree('--new-tree', newTree, null);
    console.log(`== instead of this tree: ${newTree} (${head.slice(0, 12)})`);
  } else {
    console.log(`== this tree (${seconds()})`);
    must('pnpm', ['build', '--output-logs=errors-only'], root);
  }
  const sides = [
    { name: 'ref', bin: join(refTree, 'packages', 'cli', 'dist', 'bin.js') },
    { name: 'new', bin: join(newTree, 'packages', 'cli', 'dist', 'bin.js') },
  ];
  const list = scenarios();
  const steps = values.step ? STEPS.filter((step) => values.step.includes(step.name)) : STEPS;
  console.log(
    `== comparing ${list.length} scenarios × ${steps.map((s) => s.name).join(', ')} (${seconds()})`,
  );
  let different = false;
  for (const scenario of list) {
    const differences = [];
    for (const step of steps) differences.push(...(await runStep(scenario, step, sides)));
    if (printScenario(scenario.name, differences)) different = true;
  }
  return different;
}

/** Judges again the runs a --keep left in --from (their last pass). */
function judgeKept() {
  console.log(`== judging the runs kept in ${work}`);
  const byScenario = new Map();
  for (const kept of keptRuns(work))
    byScenario.set(kept.scenario, [...(byScenario.get(kept.scenario) ?? []), kept]);
  let different = false;
  for (const [name, steps] of byScenario) {
    if (values.only && !values.only.includes(name)) continue;
    const differences = steps.flatMap((kept) =>
      judgeRuns(`${name} ${kept.step} (kept)`, kept.runs, expected, kept.step),
    );
    if (printScenario(name, differences)) different = true;
  }
  return different;
}

/** The expected differences found, by group: how many, and the first place each was found. */
function printTally() {
  if (!expected) return;
  console.log('== expected differences found, by group (count, group, first seen)');
  for (const group of expected.groups) {
    const seen = expected.tally.byGroup.get(group.id);
    console.log(`  ${String(seen?.count ?? 0).padStart(5)}  ${group.id}${seen ? `  (${seen.example})` : ''}`);
  }
}

let failed = false;
const expected = await expectedOf(sha.stdout.trim());
try {
  failed = values.from ? judgeKept() : await runScenarios();
  printTally();
  console.log(failed ? `outputs differ from ${values.ref}` : `every output is identical to ${values.ref}`);
} catch (error) {
  console.error(`check-identical: ${error.message}`);
  failed = true;
} finally {
  cleanUp();
  console.log(`(${seconds()})`);
}
process.exit(failed ? 1 : 0);
