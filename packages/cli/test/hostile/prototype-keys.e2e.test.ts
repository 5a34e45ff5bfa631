import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail } from '../helpers.js';

const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../../apps/report/dist/index.js', import.meta.url)),
);
const work = await mkdtemp(join(tmpdir(), 'cctrail-proto-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);
const projects = join(work, 'projects');

/** Names a plain object answers from its prototype, or (`__proto__`) does not keep as a key. */
const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

// One project folder per name, whose one session answers with a model of the same name and runs an agent of
// that id.
for (const [k, name] of NAMES.entries()) {
  const id = `0d0d0d0d-0000-4000-8000-00000000070${k}`;
  const base = { sessionId: id, cwd: '/home/dev/x', version: '2.1.39', userType: 'external' };
  const at = (s: number) => new Date(Date.UTC(2026, 1, 10, 9, 0, s)).toISOString();
  const main = [
    {
      ...base,
      type: 'user',
      uuid: `u${k}`,
      parentUuid: null,
      isSidechain: false,
      timestamp: at(0),
      message: { role: 'user', content: `prompt ${k}` },
    },
    {
      ...base,
      type: 'assistant',
      uuid: `a${k}`,
      parentUuid: `u${k}`,
      isSidechain: false,
      timestamp: at(1),
      message: {
        id: `msg_${k}`,
        role: 'assistant',
        model: name,
        content: [{ type: 'text', text: 'done' }],
        usage: { input_tokens: 10 + k, output_tokens: 5 },
      },
    },
  ];
  const project = join(projects, name);
  await mkdir(project, { recursive: true });
  await writeFile(join(project, `${id}.jsonl`), `${main.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

describe('input strings that name Object.prototype members (#31)', () => {
  it('stats: every model and project has its line in the cost breakdowns', async () => {
    const run = await cctrail(['stats', projects, '--json', '--no-cache']);
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout);
    expect(Object.keys(stats.cost.byModel).sort()).toEqual([...NAMES].sort());
    expect(Object.keys(stats.cost.byProject).sort()).toEqual([...NAMES].sort());
    expect(Object.getOwnPropertyDescriptor(stats.cost.byModel, '__proto__')?.value).toEqual({
      usd: 0,
      unpriced: 1,
    });
  });

  it('export: each session keeps its usage by model, and the index its costs by model and project', async () => {
    const out = join(work, 'archive');
    const run = await cctrail(['export', projects, '-o', out]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8'));
    expect(Object.keys(index.cost.byModel).sort()).toEqual([...NAMES].sort());
    expect(Object.keys(index.cost.byProject).sort()).toEqual([...NAMES].sort());
    for (const [k, name] of NAMES.entries()) {
      const file = join(out, 'sessions', name, `0d0d0d0d-0000-4000-8000-00000000070${k}.json`);
      const session = JSON.parse(await readFile(file, 'utf8'));
      expect(Object.keys(session.usage.byModel)).toEqual([name]);
      expect(session.usage.byModel[name].inputTokens).toBe(10 + k);
    }
  });

  it.skipIf(!REPORT_BUILT)(
    'report: a page for every project, no internal error',
    async () => {
      const site = join(work, 'site');
      const run = await cctrail(['report', projects, '-o', site]);
      expect(run.stderr).not.toContain('internal error');
      expect(run.code).toBe(0);
      const index = await readFile(join(site, 'index.html'), 'utf8');
      for (const name of NAMES) expect(index).toContain(name);
    },
    120_000,
  );
});
