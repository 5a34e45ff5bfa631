import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../src/build/build.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * A build reads each session file at most once (`build/session-pass.ts`), and a rebuild reads none that it has
 * read before, even when every page is rendered again.
 */

const tmp = tempFolder('cctrail-read-once-');

/** Builds the report and returns the progress lines of its session passes. */
async function passes(title: string): Promise<string[]> {
  const logged: string[] = [];
  await buildReport({
    dataDir: join(tmp, 'data'),
    outDir: join(tmp, 'site'),
    title,
    log: (m) => logged.push(m),
  });
  return logged.filter((m) => m.includes('session files read'));
}

describe('reading the archive', () => {
  it('reads each session once, and none again on a rebuild', async () => {
    writeArchive(join(tmp, 'data'), [
      { id: 'shop', cwd: '/home/dev/shop', sessions: [demoSession(), linearSession('long', 450)] },
    ]);
    const first = await passes('one');
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^report: 2 session files read, 6 transcript pages rendered/);
    expect(await passes('one')).toEqual([]);
    // A new title renders every page again, from the cache.
    expect(await passes('two')).toEqual([]);
  });
});
