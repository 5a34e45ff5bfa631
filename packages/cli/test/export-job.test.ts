import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSession } from '@cctrail/core';
import { type DiscoveredSession, discover, sessionSource } from '@cctrail/core/node';
import { describe, expect, it } from 'vitest';
import { displayPath } from '../src/display.js';
import { type ExportJob, runJob } from '../src/jobs.js';
import { redactSecrets } from '../src/redact.js';
import { FIXTURES, fixtureScenarios } from './helpers.js';

describe('export job', () => {
  it.skipIf(fixtureScenarios().length === 0)(
    'writes every fixture exactly as JSON.stringify of the session built with content',
    async () => {
      const discovery = await discover([FIXTURES]);
      let count = 0;
      for (const project of discovery.projects) {
        for (const found of project.sessions) {
          const full = await buildSession(await sessionSource(found, (path) => displayPath(FIXTURES, path)));
          // Whole, and without content (read back from the transcript while writing).
          for (const leanAboveBytes of [Number.POSITIVE_INFINITY, 0]) {
            const result = await runJob({
              kind: 'export',
              input: { discovered: found, root: FIXTURES },
              duplicateOf: null,
              file: 'sessions/p/s.json',
              privacy: { redact: false, shortHome: false },
              dir: null,
              leanAboveBytes,
            });
            expect(result.text?.join('')).toBe(`${JSON.stringify(full)}\n`);
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
      const results = [];
      for (const leanAboveBytes of [Number.POSITIVE_INFINITY, 0]) {
        results.push(
          await runJob({
            kind: 'export',
            input: { discovered: found!, root: hostile },
            duplicateOf: null,
            file: 'sessions/p/s.json',
            privacy: { redact: true, shortHome: true },
            dir: null,
            leanAboveBytes,
          }),
        );
      }
      const [whole, lean] = results;
      expect(lean).toEqual(whole);
      // The count is of distinct secrets in the transcript: a copy in a derived field (the first prompt is
      // also the title) or a value used twice does not add to it. Every planted occurrence is found.
      const facts = JSON.parse(readFileSync(join(hostile, 'facts.json'), 'utf8')) as { secrets: number };
      const planted = new Set<string>();
      let occurrences = 0;
      for (const line of readFileSync(found!.mainFile!, 'utf8').split('\n').filter(Boolean))
        occurrences += redactSecrets(JSON.parse(line), planted);
      expect(occurrences).toBe(facts.secrets);
      expect(planted.size).toBeGreaterThan(0);
      expect(whole!.redacted).toBe(planted.size);
      const text = whole!.text!.join('');
      expect(text).toContain('[REDACTED:');
      expect(text).not.toContain('/home/dev/');
      expect(JSON.stringify(whole!.summary)).not.toMatch(/sk-ant-|\/home\/dev\//);
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
      for (const leanAboveBytes of [Number.POSITIVE_INFINITY, 0]) {
        const result = await runJob({
          kind: 'export',
          input: { discovered: found!, root },
          duplicateOf: null,
          file: 'sessions/p/s.json',
          privacy: { redact: false, shortHome: false },
          dir: null,
          leanAboveBytes,
        });
        texts.push(result.text!.join(''));
      }
      expect(texts[1]).toBe(texts[0]);
      expect(texts[0]!.length).toBeGreaterThan(3 * long.length);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

/** The export job of `cctrail report` for a fixture session: redacted, home paths shortened, into `dir`. */
function reportJob(
  discovered: DiscoveredSession,
  file: string,
  dir: string,
  options: Pick<ExportJob, 'leanAboveBytes' | 'partsCacheDir' | 'slugs'>,
): ExportJob {
  return {
    kind: 'export',
    input: { discovered, root: FIXTURES },
    duplicateOf: null,
    file,
    privacy: { redact: true, shortHome: true },
    dir,
    ...options,
  };
}

describe('export job for a report', () => {
  it.skipIf(fixtureScenarios().length === 0)(
    'caches each written session’s manifest part: what the report computes from the file, privacy included',
    async () => {
      const { summarizeSession } = await import('@cctrail/report/parts');
      const dir = await mkdtemp(join(tmpdir(), 'cctrail-parts-'));
      try {
        const found = (await discover([FIXTURES])).projects.flatMap((p) => p.sessions);
        const fromFiles: string[] = [];
        for (const [i, session] of found.entries()) {
          const file = `sessions/p/s${i}.json`;
          for (const leanAboveBytes of [Number.POSITIVE_INFINITY, 0]) {
            await runJob(
              reportJob(session, file, join(dir, 'archive'), {
                leanAboveBytes,
                partsCacheDir: join(dir, leanAboveBytes === 0 ? 'lean' : 'whole'),
              }),
            );
          }
          const written = JSON.parse(await readFile(join(dir, 'archive', file), 'utf8'));
          fromFiles.push(JSON.stringify(summarizeSession(written)));
        }
        for (const kind of ['whole', 'lean']) {
          const folder = join(dir, kind, 'parts');
          const parts = await Promise.all(
            (await readdir(folder)).map((f) => readFile(join(folder, f), 'utf8')),
          );
          expect(parts.sort(), kind).toEqual([...fromFiles].sort());
        }
        expect(fromFiles.some((part) => part.includes('"description":'))).toBe(true);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('export job for a report, with the site’s slugs', () => {
  it.skipIf(fixtureScenarios().length === 0)(
    'renders each written session’s transcript fragments: the bytes the report renders from the file',
    async () => {
      const { prerenderWritten, summarizeSession } = await import('@cctrail/report/parts');
      const dir = await mkdtemp(join(tmpdir(), 'cctrail-fragments-'));
      try {
        const found = (await discover([FIXTURES])).projects.flatMap((p) => p.sessions);
        for (const [i, session] of found.entries()) {
          const file = `sessions/p/s${i}.json`;
          const slugs = { project: 'p', session: `s${i}` };
          const result = await runJob(
            reportJob(session, file, join(dir, 'archive'), { partsCacheDir: join(dir, 'early'), slugs }),
          );
          // What the report does when the fragments are not in its cache: render them from the file.
          const path = join(dir, 'archive', file);
          const written = JSON.parse(await readFile(path, 'utf8'));
          await prerenderWritten({
            file: path,
            session: written,
            summary: result.summary as Parameters<typeof prerenderWritten>[0]['summary'],
            part: summarizeSession(written),
            projectSlug: slugs.project,
            sessionSlug: slugs.session,
            cacheDir: join(dir, 'from-files'),
          });
        }
        const fragments = async (kind: string) => {
          const folder = join(dir, kind, 'fragments');
          const names = (await readdir(folder)).sort();
          return Promise.all(names.map(async (name) => [name, await readFile(join(folder, name), 'utf8')]));
        };
        const early = await fragments('early');
        expect(early.length).toBeGreaterThan(found.length);
        expect(early).toEqual(await fragments('from-files'));
        // The hostile fixture's secrets were redacted before its pages were rendered.
        expect(early.some(([, text]) => text?.includes('[REDACTED:'))).toBe(true);
        expect(early.some(([, text]) => text?.includes('AKIAIOSFODNN7EXAMPLE'))).toBe(false);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
