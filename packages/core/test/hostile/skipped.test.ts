import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSession } from '../../src/index.js';
import { discover } from '../../src/node/index.js';
import { jsonl, memorySource, prompt } from '../helpers.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cctrail-skipped-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 0);

describe('paths that are not read', () => {
  it('are listed with their reason; links that stay inside the folder given are followed', async () => {
    const projects = join(work, 'projects');
    mkdirSync(projects);
    cpSync(join(FIXTURES, 'linear', '-home-dev-linear'), join(projects, '-home-dev-linear'), {
      recursive: true,
    });
    const outside = join(work, 'outside');
    cpSync(join(FIXTURES, 'compaction', '-home-dev-compaction'), outside, { recursive: true });
    symlinkSync(outside, join(projects, '-home-dev-outside'));
    symlinkSync(join(projects, '-home-dev-linear'), join(projects, '-home-dev-inside'));
    symlinkSync(join(work, 'nowhere'), join(projects, '-home-dev-linear', 'broken.jsonl'));
    mkdirSync(join(projects, '-home-dev-linear', 'folder.jsonl'));
    execFileSync('mkfifo', [join(projects, '-home-dev-linear', 'pipe.jsonl')]);

    const found = await discover([projects]);
    expect(found.projects.map((p) => p.slug)).toEqual(['-home-dev-inside', '-home-dev-linear']);
    expect(found.skipped.map((s) => [s.path.slice(projects.length + 1), s.reason])).toEqual([
      ['-home-dev-inside/broken.jsonl', 'a symbolic link whose target does not exist'],
      ['-home-dev-inside/folder.jsonl', 'a folder named like a transcript'],
      ['-home-dev-inside/pipe.jsonl', 'not a regular file (a FIFO, socket or device)'],
      ['-home-dev-linear/broken.jsonl', 'a symbolic link whose target does not exist'],
      ['-home-dev-linear/folder.jsonl', 'a folder named like a transcript'],
      ['-home-dev-linear/pipe.jsonl', 'not a regular file (a FIFO, socket or device)'],
      ['-home-dev-outside', `a symbolic link out of the folder given (to ${outside})`],
    ]);
  });

  it('an unreadable file is a diagnostic, and the session is built from the other files', async () => {
    const denied = {
      path: 's/subagents/agent-x.jsonl',
      read(): AsyncIterable<Uint8Array> {
        return {
          [Symbol.asyncIterator]: () => ({
            next: () =>
              Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })),
          }),
        };
      },
    };
    const session = await buildSession({
      id: 's',
      main: memorySource('s.jsonl', jsonl([prompt('a', null)])),
      agents: [denied],
    });
    expect(session.entries.map((e) => e.uuid)).toEqual(['a']);
    const problem = session.diagnostics.find((d) => d.code === 'unreadable-file');
    expect(problem?.file).toBe('s/subagents/agent-x.jsonl');
    expect(problem?.message).toContain('permission denied');
  });
});
