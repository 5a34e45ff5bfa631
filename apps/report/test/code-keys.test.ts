import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { buildReport } from '../src/build/build.js';
import { builtCopy, COPIES, type Copy, fileStates, replaceIn } from './code-keys-copy.js';
import { htmlFiles } from './helpers/browser.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * The report's caches are keyed by its code: copies of the built package, each with one more edit of a view
 * that changes what it makes (a module of the built code, or a component of the site), rebuild one report in
 * turn (same archive, cache and output folder). Each edit changes exactly the pages that showed what it edits,
 * re-renders only what the edited module is part of, and leaves every other page as it was, not written again.
 */

afterAll(() => rmSync(COPIES, { recursive: true, force: true }), 0);

/** A build of the report: its pages by path, their files' identities, what it read and rendered. */
interface Built {
  pages: Map<string, string>;
  states: Map<string, string>;
  /** Sessions read and transcript fragments rendered, none when the build read no session. */
  read: string[];
  /** Sessions whose pages were rendered (their first pages). */
  rendered: number;
}

describe('the keys of the report caches', () => {
  const tmp = tempFolder('cctrail-code-keys-');
  const dataDir = writeArchive(join(tmp, 'data'), [
    { id: 'shop', cwd: '/home/dev/shop', sessions: [demoSession(), linearSession('long', 450)] },
    { id: 'blog', cwd: '/home/dev/blog', sessions: [linearSession('short', 12)] },
  ]);
  const outDir = join(tmp, 'site');
  /** The edits so far: each copy has them all, the last one new. */
  const edits: ((copy: Copy) => void)[] = [];

  /** Builds the report with a copy's code. */
  async function build(build: typeof buildReport): Promise<Built> {
    const log: string[] = [];
    await build({ dataDir, outDir, log: (msg) => log.push(msg) });
    const pages = new Map(htmlFiles(outDir).map((f) => [relative(outDir, f), readFileSync(f, 'utf8')]));
    const read = log.find((m) => m.includes('session files read'));
    return {
      pages,
      states: new Map([...fileStates(outDir)].filter(([f]) => pages.has(f))),
      read: read ? (read.match(/(\d+) session files read, (\d+) transcript pages/)?.slice(1) ?? []) : [],
      rendered: Number(
        log.find((m) => m.includes('pages rendered and written'))?.match(/session (\d+) in/)?.[1] ?? 0,
      ),
    };
  }

  /** Builds with a copy that has one more edit. */
  async function buildEdited(name: string, edit: (copy: Copy) => void): Promise<Built> {
    edits.push(edit);
    return build(
      await builtCopy(name, (copy) => {
        for (const e of edits) e(copy);
      }),
    );
  }

  /**
   * The pages that showed `before` (some, and not all) are those that differ after the edit, each showing `after`;
   * every other page is the file it was (not written again), but, when `sessionsRendered`, the pages of the
   * sessions rendered again (a session's pages are written together).
   */
  function expectExactly(last: Built, next: Built, before: string, after: string, sessionsRendered = false) {
    const affected = [...last.pages].filter(([, text]) => text.includes(before)).map(([file]) => file);
    expect(affected.length).toBeGreaterThan(0);
    expect(affected.length).toBeLessThan(last.pages.size);
    expect([...next.pages.keys()].sort()).toEqual([...last.pages.keys()].sort());
    const changed = [...next.pages]
      .filter(([file, text]) => last.pages.get(file) !== text)
      .map(([file]) => file);
    expect(changed.sort()).toEqual(affected.sort());
    for (const file of affected) expect([file, next.pages.get(file)?.includes(after)]).toEqual([file, true]);
    const written = [...next.states]
      .filter(([file, state]) => last.states.get(file) !== state)
      .map(([f]) => f);
    if (!sessionsRendered) expect(written.sort()).toEqual(affected);
    else {
      expect(written).toEqual(expect.arrayContaining(affected));
      expect(written.filter((file) => !file.startsWith('s/'))).toEqual(
        affected.filter((f) => !f.startsWith('s/')),
      );
    }
    return affected;
  }

  /**
   * The pages that differ after the edit are those that show `after` (what only the edited module makes), all
   * of them pages of sessions; no other page is written again.
   */
  function expectShown(last: Built, next: Built, after: string): void {
    const changed = [...next.pages]
      .filter(([file, text]) => last.pages.get(file) !== text)
      .map(([file]) => file);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.sort()).toEqual(
      [...next.pages]
        .filter(([, text]) => text.includes(after))
        .map(([f]) => f)
        .sort(),
    );
    expect(changed.filter((file) => !file.startsWith('s/'))).toEqual([]);
    const written = [...next.states]
      .filter(([file, state]) => last.states.get(file) !== state)
      .map(([f]) => f);
    expect(written.filter((file) => !file.startsWith('s/'))).toEqual([]);
  }

  it('follow the views: an edit makes again exactly the pages and fragments made with it', async () => {
    mkdirSync(COPIES, { recursive: true });
    const original = await builtCopy('original');
    const first = await build(original);
    expect(first.read[0]).toBe('3');
    expect(first.rendered).toBe(3);
    const again = await build(original);
    expect(again.read).toEqual([]);
    expect(again.rendered).toBe(0);
    expect([...again.states]).toEqual([...first.states]);

    // A view that only the agents' page uses (the links of its rows): it changes, every session's page is kept
    // (a sidechain's page links its agent's type by another module), no session is read.
    const agents = await buildEdited('agent-table', ({ dist }) =>
      replaceIn(join(dist, 'views', 'agents', 'agent-table.js'), 'route: `agents/', 'route: `agents/edited-'),
    );
    expect(agents.read).toEqual([]);
    expect(agents.rendered).toBe(0);
    expect(expectExactly(again, agents, '"../agents/test-runner/', '"../agents/edited-test-runner/')).toEqual(
      ['agents/index.html'],
    );

    // The view model of a session's pages: they are rendered again from the cached fragments, no session is read.
    const sessionPages = await buildEdited('session-page-views', ({ dist }) =>
      replaceIn(
        join(dist, 'views', 'site', 'session-page-views.js'),
        '`Abandoned branch${',
        '`Abandoned path${',
      ),
    );
    expect(sessionPages.read).toEqual([]);
    expect(sessionPages.rendered).toBe(3);
    expectExactly(agents, sessionPages, '<h1>Abandoned branch', '<h1>Abandoned path', true);

    // A view that every transcript uses: every session is read again and its fragments rendered again.
    const transcripts = await buildEdited('render-card', ({ dist }) =>
      replaceIn(
        join(dist, 'views', 'transcript', 'render-card.js'),
        'class="entry__body"',
        'class="entry__body edited"',
      ),
    );
    expect(transcripts.read).toEqual(['3', first.read[1]]);
    expect(transcripts.rendered).toBe(3);
    expectShown(sessionPages, transcripts, 'class="entry__body edited"');
  }, 600_000);

  it('follow the site: an edited component makes again exactly the pages it draws', async () => {
    // A component only the agents' page draws: the site is bundled again, no session page is rendered again.
    const last = await build(
      await builtCopy('components', (copy) => {
        for (const e of edits) e(copy);
      }),
    );
    expect(last.rendered).toBe(0);
    const agents = await buildEdited('agents-component', ({ site }) =>
      replaceIn(
        join(site, 'src', 'components', 'AgentsPage.astro'),
        '<h1>Agents</h1>',
        '<h1>Agents, edited</h1>',
      ),
    );
    expect(agents.read).toEqual([]);
    expect(agents.rendered).toBe(0);
    expect(expectExactly(last, agents, '<h1>Agents</h1>', '<h1>Agents, edited</h1>')).toEqual([
      'agents/index.html',
    ]);

    // The component of a session's first page: every session's pages are rendered again, none read.
    const sessions = await buildEdited('session-component', ({ site }) =>
      replaceIn(
        join(site, 'src', 'components', 'SessionPage.astro'),
        '<h1 class="session-title">',
        '<h1 class="session-title edited">',
      ),
    );
    expect(sessions.read).toEqual([]);
    expect(sessions.rendered).toBe(3);
    expect(
      expectExactly(
        agents,
        sessions,
        '<h1 class="session-title">',
        '<h1 class="session-title edited">',
        true,
      ),
    ).toHaveLength(3);
  }, 600_000);
});
