import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRenderer as loadBytesRenderer, siteServer, siteServerKey } from '../src/build/site-server.js';
import { agentsPageView, indexPageView } from '../src/views/site/page-views.js';
import type { SiteManifest } from '../src/views/site/site-model.js';

/**
 * The site's server bundle, made for a copy of the package's sources (inside the package, so that the bundle's
 * imports resolve from its node_modules): it is made once when missing, made again when a source changes, and
 * renders pages, handing back a failing page's own error (before or after its first bytes).
 */

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const copy = join(PACKAGE, `.test-site-server-${process.pid}`);
const manifest: SiteManifest = {
  title: 'Bundled <report>',
  generator: 'cctrail test',
  dataDir: copy,
  cacheDir: copy,
  projects: [],
  agentTypes: [],
  indexErrors: [],
};

/** A bundle's renderer, its pages decoded (it renders UTF-8 bytes). */
async function loadRenderer(entry: string) {
  const render = await loadBytesRenderer(entry);
  return async (route: string, locals?: Record<string, unknown>) =>
    new TextDecoder().decode(await render(route, locals));
}

beforeAll(() => {
  mkdirSync(copy, { recursive: true });
  cpSync(join(PACKAGE, 'package.json'), join(copy, 'package.json'));
  cpSync(join(PACKAGE, 'site'), join(copy, 'site'), {
    recursive: true,
    filter: (src) => !/[\\/](\.astro|node_modules|dist)$/.test(src),
  });
  cpSync(join(PACKAGE, 'src', 'views'), join(copy, 'src', 'views'), { recursive: true });
});
afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
}, 0);

describe('the site server bundle', () => {
  it('is made once for sources without one, and renders the pages of the manifest', async () => {
    const logged: string[] = [];
    const log = (msg: string) => logged.push(msg);
    const key = siteServerKey(copy);
    // Astro bundles in a process of its own: this one's working directory is never changed.
    const chdir = vi.spyOn(process, 'chdir');
    const [a, b] = await Promise.all([
      siteServer({ packageRoot: copy, log }),
      siteServer({ packageRoot: copy, log }),
    ]);
    expect(a).toEqual(b);
    expect(chdir).not.toHaveBeenCalled();
    chdir.mockRestore();
    expect(a.entry).toBe(join(copy, 'dist', 'site-server', key, 'server', 'entry.mjs'));
    // The site's public files come with the bundle.
    expect(readFileSync(join(a.assets, '_cctrail', 'style.css'), 'utf8')).toBe(
      readFileSync(join(PACKAGE, 'site', 'public', '_cctrail', 'style.css'), 'utf8'),
    );
    expect(logged.filter((m) => m.includes('site bundled'))).toHaveLength(1);
    // Found, not made, the next time; the copy of the site it was made from is gone.
    expect(await siteServer({ packageRoot: copy, log })).toEqual(a);
    expect(logged.filter((m) => m.includes('site bundled'))).toHaveLength(1);
    expect(readdirSync(copy).filter((n) => n.startsWith('.build-'))).toEqual([]);

    const render = await loadRenderer(a.entry);
    const index = await render('', { view: indexPageView(manifest) });
    expect(index).toMatch(/^<!DOCTYPE html>/i);
    expect(index).toContain('<title>Sessions · Bundled &lt;report&gt;</title>');
    expect(index).toContain('href="agents/index.html"');
    const agents = await render('agents/', { view: agentsPageView(manifest, 'agents/') });
    expect(agents).toContain('href="../_cctrail/style.css"');
    // A page is rendered only from the view model the build hands it, and only at its route.
    await expect(render('s/nowhere/session/')).rejects.toThrow('page /s/nowhere/session/ answered 404');
    await expect(render('search/', { view: agentsPageView(manifest, 'agents/') })).rejects.toThrow(
      'answered 404',
    );
  }, 300_000);

  it('is made again when a source changed, and hands back the error of a page that fails', async () => {
    const before = siteServerKey(copy);
    const layout = join(copy, 'site', 'src', 'layouts', 'Base.astro');
    writeFileSync(
      layout,
      readFileSync(layout, 'utf8').replace('a static report:', 'an edited static report:'),
    );
    writeFileSync(
      join(copy, 'site', 'src', 'pages', 'broken.astro'),
      "---\nthrow new Error('the broken page failed');\n---\n<p>never</p>\n",
    );
    // A page that fails once its first bytes are out (pages render as a stream): its error, not a page cut short.
    writeFileSync(
      join(copy, 'site', 'src', 'pages', 'broken-late.astro'),
      "---\nconst late = async () => { throw new Error('the late part failed'); };\n---\n<p>first</p>{late()}\n",
    );
    const after = siteServerKey(copy);
    expect(after).not.toBe(before);
    const bundle = await siteServer({ packageRoot: copy });
    expect(bundle.entry).toContain(after);
    // The bundle of the old sources is removed.
    expect(existsSync(join(copy, 'dist', 'site-server', before))).toBe(false);

    const render = await loadRenderer(bundle.entry);
    expect(await render('', { view: indexPageView(manifest) })).toContain('an edited static report:');
    await expect(render('broken/')).rejects.toThrow('the broken page failed');
    await expect(render('broken-late/')).rejects.toThrow('the late part failed');
  }, 300_000);

  it('is the one shipped when the site’s sources are not installed', async () => {
    const shipped = await siteServer({ packageRoot: copy });
    rmSync(join(copy, 'site'), { recursive: true });
    expect(await siteServer({ packageRoot: copy })).toEqual(shipped);
    rmSync(join(copy, 'dist'), { recursive: true });
    await expect(siteServer({ packageRoot: copy })).rejects.toThrow('the report site is missing');
  });
});
