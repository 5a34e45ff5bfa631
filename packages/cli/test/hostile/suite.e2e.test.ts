import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, schemaErrors } from '../helpers.js';
import { HOSTILE_CASES } from './generators.js';

const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../../apps/report/dist/index.js', import.meta.url)),
);
const work = await mkdtemp(join(tmpdir(), 'cctrail-hostile-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);
const projects = join(work, 'projects');

for (const [i, [name, generate]] of Object.entries(HOSTILE_CASES).entries()) {
  const sessionId = `0d0d0d0d-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const { main, agents = {} } = generate(sessionId);
  const project = join(projects, `-home-dev-${name}`);
  await mkdir(join(project, sessionId, 'subagents'), { recursive: true });
  await writeFile(join(project, `${sessionId}.jsonl`), `${main.join('\n')}\n`);
  for (const [file, lines] of Object.entries(agents))
    await writeFile(join(project, sessionId, 'subagents', file), `${lines.join('\n')}\n`);
}
await writeFile(
  join(
    projects,
    '-home-dev-agent-chain',
    '0d0d0d0d-0000-4000-8000-000000000005',
    'subagents',
    'agent-c000001.meta.json',
  ),
  JSON.stringify({ agentType: 'general-purpose', spawnDepth: 1e308 }),
);

describe('hostile input (#19): no internal error, every output valid against its schema', () => {
  it('export', async () => {
    const out = join(work, 'archive');
    const run = await cctrail(['export', projects, '-o', out]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8'));
    expect(schemaErrors('index', index)).toEqual([]);
    const files = (await readdir(join(out, 'sessions'), { recursive: true })).filter((f) =>
      f.endsWith('.json'),
    );
    expect(files).toHaveLength(Object.keys(HOSTILE_CASES).length);
    const codes = new Set<string>();
    for (const file of files) {
      const session = JSON.parse(await readFile(join(out, 'sessions', file), 'utf8'));
      expect(schemaErrors('session', session), file).toEqual([]);
      for (const d of session.diagnostics) codes.add(d.code);
    }
    for (const code of [
      'too-deep',
      'number-out-of-range',
      'invalid-timestamp',
      'invalid-json',
      'invalid-agent-depth',
    ])
      expect(codes).toContain(code);
  });

  it('stats --json', async () => {
    const run = await cctrail(['stats', projects, '--json']);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout);
    expect(schemaErrors('stats', stats)).toEqual([]);
    expect(Number.isFinite(stats.totals.usage.inputTokens)).toBe(true);
  });

  it.skipIf(!REPORT_BUILT)(
    'report',
    async () => {
      const out = join(work, 'site');
      const run = await cctrail(['report', projects, '-o', out]);
      expect(run.stderr).not.toContain('internal error');
      expect(run.code).toBe(0);
      const pages: string[] = [];
      for (const entry of await readdir(out, { withFileTypes: true, recursive: true }))
        if (entry.isFile() && entry.name.endsWith('.html'))
          pages.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
      const text = pages.join('\n');
      const found = [
        ...text.matchAll(
          /.{0,60}(?:\bNaN\b|\bundefined\b|<script>alert|href="\/\/evil|[\u202A-\u202E\u2066-\u2069]|not-a-date).{0,60}/g,
        ),
      ]
        .map((m) => m[0])
        // A diagnostic quotes the timestamp it could not read.
        .filter((m) => !m.includes('invalid-timestamp'));
      expect(found).toEqual([]);
    },
    180_000,
  );
});
