import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildSession } from '@cctrail/core';
import { escapeHtml, loadLiveRenderer, renderLiveTranscript } from '@cctrail/report';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyTransform } from '../../src/privacy/transform.js';
import { LiveTails } from '../../src/serve/live-tails.js';

// The memory of the append path over a long series of appends: the heap with the followed state alive minus the heap
// once it is gone, each after full collections (a baseline taken before it existed would count what the process
// loads or caches on the way, bounded on its own). Appends are made as fast as they are read; what is measured is
// what stays, not how long it takes.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use after full collections. */
function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The heap, after full collections, while the state `make` answers is alive (checked by `check`). */
async function heapWhileAlive(
  make: () => Promise<LiveTails>,
  check: (tails: LiveTails) => void,
): Promise<number> {
  const tails = await make();
  check(tails);
  const alive = heapAfterGc();
  tails.close();
  return alive;
}

/** Bytes of heap the state `make` answers holds: the heap while it is alive minus the heap once it is gone. */
async function retainedBy(make: () => Promise<LiveTails>, check: (tails: LiveTails) => void = () => {}) {
  const alive = await heapWhileAlive(make, check);
  return alive - heapAfterGc();
}

const MB = 1024 * 1024;
/**
 * Characters of each message: above what the report's markdown renderer remembers (4,000 characters; it keeps up
 * to 5,000 rendered texts, a bounded cache of its own), so that what is measured is the append path's state.
 */
const SIZE = 4500;
const work = mkdtempSync(join(tmpdir(), 'cctrail-live-memory-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 0);
const input = join(work, 'projects');
const site = join(work, 'site');
const PAGE = '/s/app/s1/';
const file = join(input, '-home-app', 'S1.jsonl');

/** A prompt and its answer, chained to `parent`, each with `size` characters of their own. */
function pair(n: number, parent: string, size: number): { text: string; last: string } {
  const filler = `${n} `.repeat(Math.ceil(size / `${n} `.length)).slice(0, size);
  const at = '2026-01-01T10:00:00.000Z';
  const prompt = {
    type: 'user',
    uuid: `p${n}`,
    parentUuid: parent,
    timestamp: at,
    message: { content: `Step ${n}: ${filler}` },
  };
  const answer = {
    type: 'assistant',
    uuid: `a${n}`,
    parentUuid: `p${n}`,
    timestamp: at,
    message: { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text: `Done ${n}: ${filler}` }] },
  };
  return { text: `${JSON.stringify(prompt)}\n${JSON.stringify(answer)}\n`, last: `a${n}` };
}

/** Writes the session's page as a rebuild would: its last cards drawn by the report (the last few lines are enough). */
async function writePage(): Promise<void> {
  const text = `${readFileSync(file, 'utf8').trim().split('\n').slice(-6).join('\n')}\n`;
  const source = {
    path: file,
    read: async function* () {
      yield Buffer.from(text);
    },
  };
  const session = await buildSession({ id: 'S1', main: source, agents: [] });
  const drawn = renderLiveTranscript(privacyTransform({ redact: true, shortHome: false })(session), 'main', {
    page: { route: PAGE.slice(1), project: 'app', session: 's1' },
  });
  mkdirSync(join(site, PAGE), { recursive: true });
  writeFileSync(join(site, PAGE, 'index.html'), `<main><div class="transcript">${drawn?.html}</div></main>`);
}

/**
 * Appends `count` pairs of `size` characters, each read by the append path, with a rebuild of the session every
 * `rebuildEvery` pairs (0: never, as when the rebuilds asked for fail).
 */
async function appendMany(count: number, size: number, rebuildEvery: number): Promise<LiveTails> {
  writeFileSync(file, pair(0, 'root', 10).text);
  await writePage();
  const tails = new LiveTails({
    root: site,
    privacy: () => privacyTransform({ redact: true, shortHome: false }),
    settle: () => undefined,
    settleMs: 60_000,
    render: { transcript: renderLiveTranscript, escape: escapeHtml },
  });
  tails.remember([input]);
  let last = 'a0';
  for (let n = 1; n <= count; n++) {
    const next = pair(n, last, size);
    appendFileSync(file, next.text);
    last = next.last;
    await tails.absorb([file]);
    if (rebuildEvery > 0 && n % rebuildEvery === 0) {
      tails.rebuilding();
      await writePage();
      await tails.rebuilt([input]);
    }
  }
  return tails;
}

describe('the append path over a long series of appends', () => {
  beforeAll(async () => {
    mkdirSync(join(input, '-home-app'), { recursive: true });
    await loadLiveRenderer();
    // What is loaded or cached once per process (the renderer's, the redaction rules') is not the state measured.
    (await appendMany(20, 100, 5)).close();
  });

  it('keeps what it holds bounded when the session is rebuilt now and then', async () => {
    // 300 pairs of 9 KB each: 2.7 MB appended, redacted and drawn, rebuilt every 50 pairs.
    const retained = await retainedBy(
      () => appendMany(300, SIZE, 50),
      (tails) =>
        expect(tails.pageFor(PAGE, readFileSync(join(site, PAGE, 'index.html'), 'utf8')).html).toContain(
          'Done 300:',
        ),
    );
    expect(retained).toBeLessThan(MB);
  }, 600_000);

  it('keeps what it holds bounded when the rebuilds it asks for never come', async () => {
    // 450 pairs of 9 KB each, never rebuilt: the window (900 records, 4 MB) is dropped past its bound.
    expect(await retainedBy(() => appendMany(450, SIZE, 0))).toBeLessThan(MB);
  }, 600_000);
});
