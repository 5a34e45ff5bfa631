import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSession } from '@cctrail/core';
import { priceSession } from '@cctrail/core/archive';
import { type DiscoveredSession, discover, sessionSource } from '@cctrail/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/privacy/redact.js';
import type { Privacy } from '../src/privacy/transform.js';
import { runJob } from '../src/runtime/jobs.js';
import type { SessionExport } from '../src/sessions/session-export.js';
import { skeletonOf } from '../src/sessions/skeleton.js';
import { displayPath } from '../src/terminal/display.js';
import { FIXTURES, fixtureScenarios } from './helpers.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-session-export-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);
let files = 0;

const ALL_TIME = { since: null, until: null };

/** Exports a session through `runJob` into a new file; returns what the job said and the file's text. */
async function exportOnce(
  discovered: DiscoveredSession,
  root: string,
  options: { lean: boolean; privacy?: Privacy; range?: { since: number | null; until: number | null } },
): Promise<{ result: SessionExport; text: string | null; path: string; aside: string }> {
  const n = files++;
  const path = join(work, `${n}.json`);
  const aside = join(work, `${n}.aside.json`);
  const result = await runJob({
    kind: 'export',
    input: { discovered, root },
    request: {
      file: 'sessions/p/s.json',
      path,
      aside,
      privacy: options.privacy ?? { redact: false, shortHome: false },
      range: options.range ?? ALL_TIME,
      lean: options.lean,
    },
  });
  const written = result.exported?.path;
  return { result, text: written ? await readFile(written, 'utf8') : null, path, aside };
}

describe('export job', () => {
  it.skipIf(fixtureScenarios().length === 0)(
    'writes every fixture exactly as JSON.stringify of the session built with content, and keeps its skeleton',
    async () => {
      const discovery = await discover([FIXTURES]);
      let count = 0;
      for (const project of discovery.projects) {
        for (const found of project.sessions) {
          const source = () => sessionSource(found, (path) => displayPath(FIXTURES, path));
          const full = await buildSession(await source());
          // The archive stage prices a session before it is written.
          priceSession(full);
          // What `stats` keeps of the session: the skeleton of a structure-only build.
          const skeleton = skeletonOf(await buildSession(await source(), { content: false }));
          // Whole, and without content (read back from the transcript while writing).
          for (const lean of [false, true]) {
            const { result, text, path } = await exportOnce(found, FIXTURES, { lean });
            expect(text).toBe(`${JSON.stringify(full)}\n`);
            expect(result.exported?.path).toBe(path);
            expect(result.skeleton).toEqual(skeleton);
          }
          count++;
        }
      }
      expect(count).toBeGreaterThan(0);
    },
  );
});

describe('export job with privacy options', () => {
  const hostile = join(FIXTURES, 'hostile-content');
  it.skipIf(!existsSync(hostile))(
    'redacts the same way whole and without content, index line included',
    async () => {
      const [found] = (await discover([hostile])).projects.flatMap((p) => p.sessions);
      const privacy = { redact: true, shortHome: true };
      const [whole, lean] = [
        await exportOnce(found!, hostile, { lean: false, privacy }),
        await exportOnce(found!, hostile, { lean: true, privacy }),
      ];
      expect(lean!.text).toBe(whole!.text);
      expect({ ...lean!.result.exported, path: '' }).toEqual({ ...whole!.result.exported, path: '' });
      // The count is of distinct secrets in the transcript: a copy in a derived field (the first prompt is
      // also the title) or a value used twice does not add to it. Every planted occurrence is found.
      const facts = JSON.parse(readFileSync(join(hostile, 'facts.json'), 'utf8')) as { secrets: number };
      const planted = new Set<string>();
      let occurrences = 0;
      for (const line of readFileSync(found!.mainFile!, 'utf8').split('\n').filter(Boolean))
        occurrences += redactSecrets(JSON.parse(line), planted).count;
      expect(occurrences).toBe(facts.secrets);
      expect(planted.size).toBeGreaterThan(0);
      expect(whole!.result.exported?.redacted).toBe(planted.size);
      const text = whole!.text!;
      expect(text).toContain('[REDACTED:');
      expect(text).not.toContain('/home/dev/');
      expect(JSON.stringify(whole!.result.exported?.summary)).not.toMatch(/sk-ant-|\/home\/dev\//);
    },
  );
});

describe('export job on long strings', () => {
  it('writes the same text whole and without content when prompts and outputs are long', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cctrail-long-'));
    try {
      const long = 'word '.repeat(40_000);
      const lines = [
        {
          type: 'user',
          uuid: 'u1',
          parentUuid: null,
          sessionId: 's',
          message: { role: 'user', content: long },
        },
        {
          type: 'assistant',
          uuid: 'a1',
          parentUuid: 'u1',
          sessionId: 's',
          requestId: 'r1',
          message: {
            id: 'm1',
            role: 'assistant',
            model: 'm',
            content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: long } }],
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        },
        {
          type: 'user',
          uuid: 'r1',
          parentUuid: 'a1',
          sessionId: 's',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: long }] },
          toolUseResult: { stdout: long },
        },
      ];
      await mkdir(join(root, '-home-x'), { recursive: true });
      await writeFile(
        join(root, '-home-x', 's.jsonl'),
        `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
      );
      const [found] = (await discover([root])).projects.flatMap((p) => p.sessions);
      const texts: string[] = [];
      for (const lean of [false, true]) texts.push((await exportOnce(found!, root, { lean })).text!);
      expect(texts[1]).toBe(texts[0]);
      expect(texts[0]!.length).toBeGreaterThan(3 * long.length);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('export job outside the time filters, or not on a transcript', () => {
  it.skipIf(fixtureScenarios().length === 0)(
    'writes nothing for a session outside the time filters, but keeps its skeleton',
    async () => {
      const [found] = (await discover([join(FIXTURES, 'linear')])).projects.flatMap((p) => p.sessions);
      const { result, text, path, aside } = await exportOnce(found!, FIXTURES, {
        lean: false,
        range: { since: Date.parse('2100-01-01'), until: null },
      });
      expect(result.exported).toBeNull();
      expect(text).toBeNull();
      expect(result.skeleton.id).toBe(found!.id);
      expect(existsSync(path) || existsSync(aside)).toBe(false);
    },
  );

  it('writes a session that is not a transcript aside', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cctrail-not-transcript-'));
    try {
      await mkdir(join(root, 'p'), { recursive: true });
      await writeFile(join(root, 'p', 'notes.jsonl'), 'hello\n[1,2]\n');
      const [found] = (await discover([root])).projects.flatMap((p) => p.sessions);
      const { result, path, aside } = await exportOnce(found!, root, { lean: false });
      expect(result.skeleton.notATranscript).toBe(true);
      expect(result.exported?.path).toBe(aside);
      expect(existsSync(path)).toBe(false);
      expect(JSON.parse(await readFile(aside, 'utf8')).id).toBe('notes');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
