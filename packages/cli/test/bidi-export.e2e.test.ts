import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail } from './helpers.js';
import { HOSTILE_CASES } from './hostile/generators.js';

/**
 * Bidirectional control characters are the renderer's to show (#27 item 4): an archive, exported with
 * redaction or without, keeps them as the transcript wrote them, in text, a tool's name and an input's key.
 */

const TROJAN = 'if (admin) {\u202E } \u2066// check\u2069 {';
const SESSION = '0d0d0d0d-0000-4000-8000-00000000b1d1';

const work = await mkdtemp(join(tmpdir(), 'cctrail-bidi-export-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);
const projects = join(work, 'projects');
const generate = HOSTILE_CASES.text;
if (generate === undefined) throw new Error('no hostile text case');
await mkdir(join(projects, '-home-dev-bidi'), { recursive: true });
await writeFile(
  join(projects, '-home-dev-bidi', `${SESSION}.jsonl`),
  `${generate(SESSION).main.join('\n')}\n`,
);

/** The text of the one session file of an archive. */
async function sessionFile(archive: string): Promise<string> {
  const files = (await readdir(join(archive, 'sessions'), { recursive: true })).filter((f) =>
    f.endsWith('.json'),
  );
  expect(files).toHaveLength(1);
  return readFile(join(archive, 'sessions', files[0] as string), 'utf8');
}

describe('export keeps bidirectional control characters as written', () => {
  for (const args of [[], ['--redact']])
    it(`export ${args.join(' ')}`, async () => {
      const out = join(work, `archive${args.join('')}`);
      const run = await cctrail(['export', projects, '-o', out, ...args]);
      expect(run.code, run.stderr).toBe(0);
      const text = await sessionFile(out);
      const session = JSON.parse(text);
      expect(text).not.toContain('⟦U+');
      const blocks = session.entries.flatMap((e: { content?: unknown[] }) => e.content ?? []);
      expect(blocks.filter((b: { text?: string }) => b.text === TROJAN).length).toBeGreaterThan(0);
      const calls = blocks.filter((b: { type: string }) => b.type === 'tool_use');
      expect(calls.some((b: { name: string }) => b.name === TROJAN)).toBe(true);
      expect(calls.some((b: { input: object }) => Object.keys(b.input).includes(TROJAN))).toBe(true);
    });
});
