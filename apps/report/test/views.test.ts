import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fragmentHtml, readFragment } from '../src/build/fragments.js';
import { readEntry } from '../src/build/packs.js';
import { agentTable } from '../src/views/agents/agent-table.js';
import { indexView } from '../src/views/site/index-view.js';
import { pagerLinks } from '../src/views/site/pager.js';
import { allRoutes } from '../src/views/site/routes.js';
import { fragmentKey } from '../src/views/transcript/transcript-fragment.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { siteOf } from './helpers/site.js';
import { tempFolder } from './helpers/temp.js';

async function archive() {
  const dir = tempFolder('cctrail-views-');
  writeArchive(join(dir, 'data'), [
    { id: 'Shop', cwd: '/home/dev/Shop', sessions: [demoSession(), linearSession('long', 401)] },
    { id: 'shop', cwd: '/home/dev/shop', sessions: [linearSession('other', 3)] },
  ]);
  return {
    dir,
    manifest: await siteOf(join(dir, 'data'), join(dir, 'cache')),
  };
}

describe('manifest and views', () => {
  it('gives colliding projects distinct slugs and counts pages', async () => {
    const { manifest } = await archive();
    const [a, b] = manifest.projects;
    expect(a?.slug).not.toBe(b?.slug);
    expect(a?.slug.startsWith('shop-')).toBe(true);
    const long = a?.sessions.find((s) => s.id === 'long');
    expect(long?.pages).toBe(3);
    expect(manifest.agentTypes).toEqual([{ type: 'test-runner', slug: 'test-runner' }]);
  });

  it('lists every route once', async () => {
    const { manifest } = await archive();
    const routes = allRoutes(manifest).map((r) => r.route);
    expect(new Set(routes).size).toBe(routes.length);
    expect(routes).toContain('agents/test-runner/');
    expect(routes.filter((r) => r.includes('/long/'))).toHaveLength(3);
    // The demo's abandoned branch is short: it is on its session's page of alternatives, not on a page of its own.
    expect(routes.some((r) => r.endsWith('/branches/'))).toBe(true);
    expect(routes.some((r) => r.includes('/branch/'))).toBe(false);
  });

  it('reuses cached parts when the archive is read again', async () => {
    const { dir, manifest } = await archive();
    const again = await siteOf(join(dir, 'data'), join(dir, 'cache'));
    expect(again.projects.map((p) => p.sessions.map((s) => s.key))).toEqual(
      manifest.projects.map((p) => p.sessions.map((s) => s.key)),
    );
  });

  it('shapes the index and the agents table', async () => {
    const { manifest } = await archive();
    const view = indexView(manifest);
    expect(view.projects.flatMap((p) => p.rows)).toHaveLength(3);
    expect(view.totals.find((t) => t.label === 'Sessions')?.value).toBe('3');
    expect(agentTable(manifest)[0]).toMatchObject({
      agentType: 'test-runner',
      invocations: 1,
      route: 'agents/test-runner/',
    });
  });

  it('says which sessions the archive kept without their transcripts, and why', async () => {
    const dir = tempFolder('cctrail-views-archived-');
    writeArchive(
      join(dir, 'data'),
      [
        {
          id: 'Shop',
          cwd: null,
          sessions: [linearSession('gone', 3), linearSession('kept', 3), linearSession('read', 3)],
        },
      ],
      (index) => {
        const [gone, kept] = index.projects[0]!.sessions;
        gone!.archived = { status: 'missing', lastSeen: '2026-10-01' };
        kept!.archived = { status: 'kept', lastSeen: null };
      },
    );
    const manifest = await siteOf(join(dir, 'data'), join(dir, 'cache'));
    const rows = new Map(indexView(manifest).projects[0]!.rows.map((r) => [r.id, r.archived]));
    expect(rows.get('gone')).toEqual({
      badge: 'only in the archive',
      text: 'Only in the archive: its transcript was deleted on or after 2026-10-01.',
    });
    expect(rows.get('kept')?.text).toBe(
      "Kept from an earlier run: its transcript was not in this run's input.",
    );
    expect(rows.get('read')).toBeNull();
  });

  it('renders a session fragment with its graph, timeline and re-reads', async () => {
    const { manifest } = await archive();
    const p = manifest.projects[0];
    const s = p?.sessions.find((x) => x.id === 'demo-session');
    if (!p || !s) throw new Error('no demo session');
    const cache = manifest.cacheDir ?? '';
    const frag = readFragment(cache, fragmentKey(p.slug, s, { kind: 'main' }, 1));
    expect(frag.graph?.nodes.length).toBeGreaterThan(3);
    expect(frag.timeline).toContain('<svg');
    expect(frag.rereads[0]?.files[0]?.file).toBe('src/cart.ts');
    // Without images to put back, the transcript comes as the UTF-8 bytes the page renders in place.
    const bytes = fragmentHtml(cache, frag.key, s.file);
    expect(bytes).toBeInstanceOf(Uint8Array);
    const html = Buffer.from(bytes).toString('utf8');
    expect(html).toContain(`href="../../../s/${p.slug}/${s.slug}/agent/agent-x1/index.html"`);
    // The cache holds the transcript compressed: a fraction of its bytes.
    const stored = readEntry(cache, `${frag.key}.html`) ?? Buffer.alloc(0);
    expect(brotliDecompressSync(stored).toString('utf8')).toBe(html);
    expect(stored.byteLength).toBeLessThan(Buffer.byteLength(html) / 2);
    // and the rest of the fragment compressed too
    const meta = readEntry(cache, `${frag.key}.meta`) ?? Buffer.alloc(0);
    const json = brotliDecompressSync(meta).toString('utf8');
    expect(JSON.parse(json)).toMatchObject({ rereads: frag.rereads });
    expect(meta.byteLength).toBeLessThan(Buffer.byteLength(json) / 2);
  });

  it('builds pager links', () => {
    expect(pagerLinks('a/', 1, 1, () => 'a/')).toEqual([]);
    const links = pagerLinks('s/p/x/', 1, 9, (n) => (n === 1 ? 's/p/x/' : `s/p/x/p${n}/`));
    expect(links.map((l) => l.label)).toEqual(['1', '2', '3', '…', '9']);
    expect(links[0]).toEqual({ label: '1', href: null, current: true });
    expect(links[1]?.href).toBe('../../../s/p/x/p2/index.html');
  });
});
