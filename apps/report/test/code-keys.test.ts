import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { buildReport } from '../src/build/build.js';
import { filesUnder } from '../src/build/files.js';
import { htmlFiles } from './helpers/browser.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * The report's caches are keyed by its code: copies of the built package, each with one view edited, rebuild
 * one report in turn (same archive, cache and output folder), and each edit makes again exactly what the
 * edited module is part of. The copies live inside the package, so that their imports resolve from its
 * node_modules; without `site/` they render with the bundle the package was built with.
 */

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const copies = join(PACKAGE, `.test-code-keys-${process.pid}`);
afterAll(() => rmSync(copies, { recursive: true, force: true }), 0);

/** A copy of the built package, `edit` applied to it; returns its `buildReport`. */
async function builtCopy(name: string, edit: (dist: string) => void = () => {}): Promise<typeof buildReport> {
  const dist = join(copies, name, 'dist');
  if (!existsSync(join(PACKAGE, 'dist', 'index.js'))) throw new Error('build the package first (pnpm build)');
  cpSync(join(PACKAGE, 'dist'), dist, { recursive: true, filter: (src) => !src.endsWith('.map') });
  // Without their source maps (which point to sources the copy does not have), for the test's module loader.
  for (const rel of filesUnder(dist).filter((f) => /^((build|views)\/([^/]+\/)*)?[^/]+\.js$/.test(f))) {
    const file = join(dist, rel);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
  }
  edit(dist);
  const module = (await import(pathToFileURL(join(dist, 'index.js')).href)) as {
    buildReport: typeof buildReport;
  };
  return module.buildReport;
}

/** Replaces `from` (which must be there) by `to` in a module of a copy. */
function replaceIn(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${from} is not in ${file}`);
  writeFileSync(file, text.replace(from, to));
}

describe('the keys of the report caches', () => {
  const tmp = tempFolder('cctrail-code-keys-');
  const dataDir = writeArchive(join(tmp, 'data'), [
    { id: 'shop', cwd: '/home/dev/shop', sessions: [demoSession(), linearSession('long', 450)] },
    { id: 'blog', cwd: '/home/dev/blog', sessions: [linearSession('short', 12)] },
  ]);
  const outDir = join(tmp, 'site');

  /** Builds the report with a copy's code; returns the log and the site's pages by path. */
  async function build(build: typeof buildReport) {
    const log: string[] = [];
    await build({ dataDir, outDir, log: (msg) => log.push(msg) });
    const pages = new Map(htmlFiles(outDir).map((f) => [relative(outDir, f), readFileSync(f, 'utf8')]));
    const read = log.find((m) => m.includes('session files read'));
    return {
      pages,
      /** Sessions read and transcript fragments rendered, none when the build read no session. */
      read: read ? (read.match(/(\d+) session files read, (\d+) transcript pages/)?.slice(1) ?? []) : [],
      /** Sessions whose pages were rendered (their first pages). */
      rendered: Number(
        log.find((m) => m.includes('pages rendered and written'))?.match(/session (\d+) in/)?.[1] ?? 0,
      ),
    };
  }
  /** The pages that differ between two builds. */
  const changed = (a: Map<string, string>, b: Map<string, string>) =>
    [...b.keys()].filter((f) => a.get(f) !== b.get(f)).sort();

  it('follow the views: an edit makes again exactly the pages and fragments made with it', async () => {
    mkdirSync(copies, { recursive: true });
    const original = await builtCopy('original');
    const first = await build(original);
    expect(first.read[0]).toBe('3');
    const again = await build(original);
    expect(again.read).toEqual([]);
    expect(first.rendered).toBe(3);
    expect(again.rendered).toBe(0);

    // A view that only the agents' pages use: they change, every session's page is kept, no session is read.
    const agents = await build(
      await builtCopy('agent-table', (dist) =>
        replaceIn(
          join(dist, 'views', 'agents', 'agent-table.js'),
          'route: `agents/',
          'route: `agents/edited-',
        ),
      ),
    );
    expect(agents.read).toEqual([]);
    expect(agents.rendered).toBe(0);
    expect(changed(again.pages, agents.pages)).toEqual(['agents/index.html']);
    expect(agents.pages.get('agents/index.html')).toContain('href="../agents/edited-test-runner/index.html"');

    // The view of a session's pages: they are rendered again from the cached fragments, no session is read.
    const sessionPages = await build(
      await builtCopy('session-page-views', (dist) =>
        appendFileSync(join(dist, 'views', 'site', 'session-page-views.js'), '\n// edited\n'),
      ),
    );
    expect(sessionPages.read).toEqual([]);
    expect(sessionPages.rendered).toBe(3);

    // A view that every transcript uses: every session is read again and its fragments rendered again.
    const transcripts = await build(
      await builtCopy('render-card', (dist) =>
        appendFileSync(join(dist, 'views', 'transcript', 'render-card.js'), '\n// edited\n'),
      ),
    );
    expect(transcripts.read).toEqual(['3', first.read[1]]);
    expect(transcripts.rendered).toBe(3);
    // The edit changes no byte: the pages are those of the first build.
    expect(changed(first.pages, transcripts.pages)).toEqual([]);
  }, 300_000);
});
