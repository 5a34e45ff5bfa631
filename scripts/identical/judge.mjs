// What `scripts/check-identical.mjs` makes of one step's two runs: each difference explained by the reviewed
// groups of the reference (`expected-<ref>.mjs`) or kept as unexplained, and the runs a --keep left to judge again.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareRuns, differingOutputs, maskBuildDependent } from './compare.mjs';
import { explain } from './expected.mjs';

/**
 * The differences of two runs of one step that no group explains, as lines; the explained ones go to `tally`.
 * Without groups, every difference is a line. A different exit code is never explained.
 * @param {string} where scenario, step and pass, to name each difference
 * @param {{status: number | null, stdout: Buffer, stderr: Buffer, out?: string}[]} runs the reference's, then this tree's
 * @param {{ groups: import('./expected.mjs').Group[], tally: import('./expected.mjs').Tally } | null} expected
 * @param {string} step
 * @returns {string[]}
 */
export function judgeRuns(where, [ref, fresh], expected, step) {
  if (!expected) return compareRuns(ref, fresh, maskBuildDependent).map((found) => `${where} ${found}`);
  const left = [];
  if (ref.status !== fresh.status) left.push(`${where} exit code: ref ${ref.status}, new ${fresh.status}`);
  for (const difference of differingOutputs(ref, fresh, maskBuildDependent)) {
    const before = expected.tally.unexplained.length;
    expected.tally.add(`${where} ${difference.name}`, explain({ step, ...difference }, expected.groups));
    left.push(...expected.tally.unexplained.slice(before));
  }
  return left;
}

/** Keeps a run's exit code beside its stdout and stderr, so that `keptRuns` reads the run back whole. */
export function keepRun(dir, { status, stdout, stderr }) {
  writeFileSync(join(dir, 'stdout'), stdout);
  writeFileSync(join(dir, 'stderr'), stderr);
  writeFileSync(join(dir, 'status'), `${status}\n`);
}

/** A kept run of one side: its streams, exit code (null when not kept) and output folder when it wrote one. */
function readRun(dir) {
  const status = existsSync(join(dir, 'status')) ? Number(readFileSync(join(dir, 'status'), 'utf8')) : null;
  const out = join(dir, 'out');
  return {
    status,
    stdout: readFileSync(join(dir, 'stdout')),
    stderr: readFileSync(join(dir, 'stderr')),
    out: existsSync(out) ? out : undefined,
  };
}

/**
 * The runs a `--keep` left in `work` (its last pass of each step), scenario by scenario in order of name.
 * @param {string} work
 * @returns {{ scenario: string, step: string, runs: ReturnType<typeof readRun>[] }[]}
 */
export function keptRuns(work) {
  const found = [];
  const names = (dir) => readdirSync(dir).sort();
  for (const scenario of names(join(work, 'runs'))) {
    for (const step of names(join(work, 'runs', scenario))) {
      const dir = join(work, 'runs', scenario, step);
      // A step still running (or stopped) has not written both sides' streams yet.
      if (!existsSync(join(dir, 'ref', 'stdout')) || !existsSync(join(dir, 'new', 'stdout'))) continue;
      found.push({ scenario, step, runs: [readRun(join(dir, 'ref')), readRun(join(dir, 'new'))] });
    }
  }
  return found;
}
