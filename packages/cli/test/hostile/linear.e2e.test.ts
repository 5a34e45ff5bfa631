import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail } from '../helpers.js';
import { HOSTILE_SIZED, type HostileSession } from './generators.js';

const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../../apps/report/dist/index.js', import.meta.url)),
);
const work = await mkdtemp(join(tmpdir(), 'cctrail-linear-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** Writes one session into a projects folder of its own and returns that folder. */
async function projectsOf(name: string, session: HostileSession, sessionId: string): Promise<string> {
  const projects = join(work, name);
  const project = join(projects, `-home-dev-${name}`);
  await mkdir(join(project, sessionId, 'subagents'), { recursive: true });
  await writeFile(join(project, `${sessionId}.jsonl`), `${session.main.join('\n')}\n`);
  for (const [file, lines] of Object.entries(session.agents ?? {}))
    await writeFile(join(project, sessionId, 'subagents', file), `${lines.join('\n')}\n`);
  return projects;
}

/** Size of each file below `dir`, by its path there. */
function sizesUnder(dir: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      sizes.set(relative(dir, path), statSync(path).size);
    }
  return sizes;
}

/** Bytes of the files of `site` that `other` does not have alike (same path, same size): not the fixed ones. */
function ownBytes(site: Map<string, number>, other: Map<string, number>): number {
  let bytes = 0;
  for (const [path, size] of site) if (other.get(path) !== size) bytes += size;
  return bytes;
}

/** A module preloaded into the CLI's process: at exit, it writes the process's CPU time (ms) to a file. */
const CPU_PRELOAD = join(work, 'cpu-at-exit.cjs');
await writeFile(
  CPU_PRELOAD,
  `process.on('exit', () => {
    const used = process.cpuUsage();
    require('node:fs').writeFileSync(process.env.CCTRAIL_TEST_CPU_FILE, String((used.user + used.system) / 1000));
  });\n`,
);

/**
 * CPU time of a whole `cctrail report` (its worker threads and start-up included, which only lowers the ratio:
 * the work done, which a busy machine does not stretch the way it stretches wall time) and the sizes of the
 * files it wrote.
 */
async function report(projects: string): Promise<{ cpu: number; sizes: Map<string, number> }> {
  const cpuFile = `${projects}-cpu`;
  const run = await cctrail(['report', projects, '-o', `${projects}-site`], {
    env: { NODE_OPTIONS: `--require ${CPU_PRELOAD}`, CCTRAIL_TEST_CPU_FILE: cpuFile },
  });
  expect(run.stderr).not.toContain('internal error');
  expect(run.code).toBe(0);
  return { cpu: Number(await readFile(cpuFile, 'utf8')), sizes: sizesUnder(`${projects}-site`) };
}

// Ten times the input may cost ten times the CPU, plus start-up; a quadratic step costs a hundred times (#31:
// at most 15 ×). The 2,000-deep chain took minutes when the report walked every chain once per agent.
const FACTOR = 15;
/** Bytes are not noisy: the bound is near ten. */
const BYTES_FACTOR = 13;

describe('hostile input (#19): report work proportional to the input', () => {
  for (const [name, [small, big]] of [
    ['agent-chain', [200, 2000]],
    ['retries', [300, 3000]],
  ] as const) {
    it.skipIf(!REPORT_BUILT)(
      `${name}: ${big} costs at most ${FACTOR} × ${small}`,
      async () => {
        const make = HOSTILE_SIZED[name];
        const a = await projectsOf(
          `${name}-${small}`,
          make(small, '0d0d0d0d-0000-4000-8000-00000000a001'),
          '0d0d0d0d-0000-4000-8000-00000000a001',
        );
        const b = await projectsOf(
          `${name}-${big}`,
          make(big, '0d0d0d0d-0000-4000-8000-00000000a002'),
          '0d0d0d0d-0000-4000-8000-00000000a002',
        );
        const smallRun = await report(a);
        const bigRun = await report(b);
        expect(bigRun.cpu / smallRun.cpu).toBeLessThan(FACTOR);
        // What it writes is counted, not timed: ten times the input, about ten times the bytes, the site's fixed
        // files (scripts, styles) left out. A search index that listed every page of a session in each of its
        // files made it 14 × on the chain and 19 × on the retries (10 × and 10 × since).
        const ratio = ownBytes(bigRun.sizes, smallRun.sizes) / ownBytes(smallRun.sizes, bigRun.sizes);
        expect(ratio).toBeLessThan(BYTES_FACTOR);
        // Pages are bounded by entries, not by forks (#31): short branches share pages of alternatives, fifty a
        // page. A page per branch made 100,000 retries run past 720 s, in folders of 100,000 pages.
        const pages = [...bigRun.sizes.keys()].filter((f) => f.endsWith('.html')).length;
        if (name === 'retries') expect(pages).toBeLessThan(big / 40);
      },
      600_000,
    );
  }
});
