import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail } from '../helpers.js';
import { HOSTILE_SIZED, type HostileSession } from './generators.js';

const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../../apps/report/dist/index.js', import.meta.url)),
);
const work = await mkdtemp(join(tmpdir(), 'cctrail-linear-'));
afterAll(() => rm(work, { recursive: true, force: true }));

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

/** Wall time of a whole `cctrail report` (start-up included, which only lowers the ratio). */
async function reportTime(projects: string): Promise<number> {
  const started = performance.now();
  const run = await cctrail(['report', projects, '-o', `${projects}-site`]);
  const ms = performance.now() - started;
  expect(run.stderr).not.toContain('internal error');
  expect(run.code).toBe(0);
  return ms;
}

// Ten times the input may cost ten times the time, plus start-up; a quadratic step costs a hundred times. The
// factor is generous: timings on a shared machine are noisy, and the 2,000-deep chain took minutes when the
// report walked every chain once per agent.
const FACTOR = 30;

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
        const smallMs = await reportTime(a);
        const bigMs = await reportTime(b);
        expect(bigMs / smallMs).toBeLessThan(FACTOR);
      },
      600_000,
    );
  }
});
