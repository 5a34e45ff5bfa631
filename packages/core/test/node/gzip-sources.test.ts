/**
 * Gzip-compressed transcripts on disk: which file discovery takes, how a damaged one is read, and that every
 * gzip member of a file is read, by both ways of reading.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSession, type Session } from '../../src/index.js';
import { discover, fileSource, sessionSource } from '../../src/node/index.js';
import { readLines } from '../../src/read/read-lines.js';
import { answer, jsonl, prompt } from '../helpers.js';
import { gzipMembers } from './gzip-copy.js';

const temp = mkdtempSync(join(tmpdir(), 'cctrail-gzip-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }), 0);

let folders = 0;
/** A new projects folder holding one project, `proj`, with the given files (path → bytes). */
function projects(files: Record<string, string | Uint8Array>): string {
  const root = join(temp, `projects-${++folders}`);
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(join(root, 'proj', path, '..'), { recursive: true });
    writeFileSync(join(root, 'proj', path), bytes);
  }
  return root;
}

/** Every session under a folder, files shown relative to it. */
async function sessions(root: string, blocking = false): Promise<Session[]> {
  const found = await discover([root]);
  const out: Session[] = [];
  for (const s of found.projects.flatMap((p) => p.sessions))
    out.push(await buildSession(await sessionSource(s, (p) => relative(root, p), { blocking })));
  return out;
}

/** A conversation of `n` prompts, each answered; with `pad`, each line carries that many pseudo-random hex digits. */
function conversation(n: number, sessionId = 'S', pad = 0): string {
  let seed = 7;
  const noise = () => {
    let out = '';
    while (out.length < pad) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      out += seed.toString(16);
    }
    return out.slice(0, pad);
  };
  const records: object[] = [];
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    records.push(prompt(`p${i}`, parent, `question ${i} ${noise()}`, { sessionId }));
    records.push(answer(`a${i}`, `p${i}`, `answer ${i} ${noise()}`, `msg_${i}`, { sessionId }));
    parent = `a${i}`;
  }
  return jsonl(records);
}

describe('discovering .gz files', () => {
  it('reads the plain file where a folder holds both it and its .gz', async () => {
    const root = projects({
      'S.jsonl': conversation(2),
      'S.jsonl.gz': gzipMembers(Buffer.from(conversation(5))),
      'S/subagents/agent-a1.jsonl': conversation(1, 'S'),
      'S/subagents/agent-a1.jsonl.gz': gzipMembers(Buffer.from(conversation(3, 'S'))),
      'S/subagents/agent-a1.meta.json': '{"agentType":"plain"}',
      'S/subagents/agent-a1.meta.json.gz': gzipMembers(Buffer.from('{"agentType":"gz"}')),
      'T.jsonl.gz': gzipMembers(Buffer.from(conversation(1, 'T'))),
    });
    const found = await discover([root]);
    const [s, t] = found.projects[0]!.sessions;
    expect(s).toMatchObject({
      id: 'S',
      mainFile: join(root, 'proj', 'S.jsonl'),
      agentFiles: [join(root, 'proj', 'S', 'subagents', 'agent-a1.jsonl')],
      metaFiles: [join(root, 'proj', 'S', 'subagents', 'agent-a1.meta.json')],
    });
    expect(t).toMatchObject({ id: 'T', mainFile: join(root, 'proj', 'T.jsonl.gz') });
    const [built] = await sessions(root);
    expect(built!.entries.filter((e) => e.sidechain === null)).toHaveLength(4);
    expect(built!.files.map((f) => f.path)).toEqual([
      'proj/S.jsonl',
      'proj/S/subagents/agent-a1.jsonl',
      'proj/S/subagents/agent-a1.meta.json',
    ]);
  });

  it('groups a flat agent .gz by the sessionId of its decompressed first line', async () => {
    const root = projects({
      'A.jsonl.gz': gzipMembers(Buffer.from(conversation(1, 'A'))),
      'B.jsonl.gz': gzipMembers(Buffer.from(conversation(1, 'B'))),
      // Three members, the first cut inside the first line.
      'agent-0badc0de.jsonl.gz': gzipMembers(Buffer.from(conversation(2, 'B')), [5, 300]),
    });
    const found = await discover([root]);
    expect(
      found.projects[0]!.sessions.map((s) => [s.id, s.agentFiles.map((p) => relative(root, p))]),
    ).toEqual([
      ['A', []],
      ['B', ['proj/agent-0badc0de.jsonl.gz']],
    ]);
  });

  it('takes a folder that holds only .jsonl.gz files for a project folder', async () => {
    const root = projects({ 'S.jsonl.gz': gzipMembers(Buffer.from(conversation(1))) });
    const found = await discover([join(root, 'proj')]);
    expect(found.projects.map((p) => [p.slug, p.sessions.map((s) => s.id)])).toEqual([['proj', ['S']]]);
  });
});

describe('reading a damaged .gz', () => {
  it.each([
    ['a small file cut off', 40, 0, 0.6, false],
    ['a file over 1 MiB cut off (streamed)', 1500, 1000, 0.8, true],
  ])('%s keeps the lines before the cut and says which file', async (_name, n, pad, keep, streamed) => {
    const text = conversation(n, 'S', pad);
    const whole = gzipMembers(Buffer.from(text), [Math.floor(text.length / 3)]);
    const cut = whole.subarray(0, Math.floor(whole.length * keep));
    expect(cut.length > 1 << 20).toBe(streamed);
    // What zlib can decompress of the cut file; its complete lines are what the reader keeps.
    const readable = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    const complete = readable.slice(0, readable.lastIndexOf('\n') + 1).split('\n').length - 1;
    expect(complete).toBeGreaterThan(0);
    expect(complete).toBeLessThan(2 * n);

    const root = projects({ 'S.jsonl.gz': cut });
    for (const blocking of [false, true]) {
      const [session] = await sessions(root, blocking);
      const uuids = text
        .split('\n')
        .slice(0, complete)
        .map((line) => (JSON.parse(line) as { uuid: string }).uuid);
      expect(session!.entries.map((e) => e.uuid)).toEqual(uuids);
      const unreadable = session!.diagnostics.filter((d) => d.code === 'unreadable-file');
      expect(unreadable).toHaveLength(1);
      expect(unreadable[0]).toMatchObject({ file: 'proj/S.jsonl', line: null });
      expect(unreadable[0]!.message).toMatch(/damaged gzip data in S\.jsonl\.gz: unexpected end of file/);
    }
  });

  it('turns damage inside a member into a diagnostic, not an exception', async () => {
    const text = conversation(200);
    const damaged = gzipMembers(Buffer.from(text), [text.length >> 1]);
    // In the second member: the first one (200 lines) is whole.
    const at = Math.floor(damaged.length * 0.75);
    damaged[at] = damaged[at]! ^ 0x5a;
    const root = projects({ 'S.jsonl.gz': damaged });
    for (const blocking of [false, true]) {
      const [session] = await sessions(root, blocking);
      // zlib drops the text of the step that fails: at most one small chunk before the damage is lost.
      expect(session!.entries.length).toBeGreaterThanOrEqual(150);
      expect(session!.entries.length).toBeLessThan(400);
      expect(session!.diagnostics.find((d) => d.code === 'unreadable-file')).toMatchObject({
        file: 'proj/S.jsonl',
        message: expect.stringContaining('damaged gzip data in S.jsonl.gz'),
      });
    }
  });
});

describe('fileSource of a .gz file', () => {
  it.each([
    ['a small file', 20, 0, false],
    ['a file over 1 MiB (streamed)', 2000, 1000, true],
  ])('reads every gzip member of %s, both ways', async (_name, n, pad, streamed) => {
    const text = conversation(n, 'S', pad);
    const cuts = [1, Math.floor(text.length / 2), text.length - 3];
    const path = join(temp, `members-${n}.jsonl.gz`);
    const bytes = gzipMembers(Buffer.from(text), cuts);
    expect(bytes.length > 1 << 20).toBe(streamed);
    writeFileSync(path, bytes);
    for (const blocking of [false, true]) {
      const source = fileSource(path, undefined, { blocking });
      expect(source.path).toBe(join(temp, `members-${n}.jsonl`));
      const lines: string[] = [];
      for await (const line of readLines(source.read())) lines.push(line.text);
      expect(lines).toEqual(text.slice(0, -1).split('\n'));
    }
  });

  it('reads an empty file as empty text', async () => {
    const path = join(temp, 'empty.jsonl.gz');
    writeFileSync(path, '');
    for (const blocking of [false, true]) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of fileSource(path, path, { blocking }).read()) chunks.push(chunk);
      expect(chunks).toEqual([]);
    }
  });
});
