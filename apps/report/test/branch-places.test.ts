import { beforeAll, describe, expect, it } from 'vitest';
import { manifestSession } from '../src/build/manifest.js';
import { loadHighlighter } from '../src/views/markdown/highlight.js';
import type { Session } from '../src/views/model.js';
import { branchLayout, branchPlace } from '../src/views/site/branch-places.js';
import { sessionRoutes } from '../src/views/site/routes.js';
import { transcriptPageView } from '../src/views/site/session-page-views.js';
import { summarizeSession } from '../src/views/site/session-part.js';
import type { ManifestSession, SiteManifest } from '../src/views/site/site-model.js';
import { renderFragment } from '../src/views/transcript/transcript-fragment.js';
import { summaryOf } from './helpers/demo.js';
import { answer, prompt, sessionOf } from './helpers/records.js';

beforeAll(async () => {
  await loadHighlighter();
});

/**
 * A prompt answered `retries` times (each answer a branch of one entry, the last one active), after a first
 * answer that went on for `long` more entries before the prompt was retried (a branch of `long + 1` entries).
 *
 *   u0 ─┬─ a0 ─ x1 ─ … ─ x<long>   (abandoned, long)
 *       ├─ r0                      (abandoned, short)
 *       ├─ …
 *       └─ r<retries − 1>          (active)
 */
async function forked(retries: number, long: number): Promise<{ session: Session; s: ManifestSession }> {
  const records: object[] = [prompt('u0', null, 'try this'), answer('a0', 'u0', 'first try')];
  for (let i = 1; i <= long; i++)
    records.push(
      i % 2 ? prompt(`x${i}`, i === 1 ? 'a0' : `x${i - 1}`) : answer(`x${i}`, `x${i - 1}`, 'more'),
    );
  for (let i = 0; i < retries; i++) records.push(answer(`r${i}`, 'u0', `attempt ${i}`));
  const session = await sessionOf(records);
  const part = summarizeSession(session);
  const s = manifestSession(
    { summary: summaryOf(session, 's.jsonl'), sessionSlug: 's', file: 's.jsonl', key: 'k' },
    part,
  );
  return { session, s };
}

const manifest = (s: ManifestSession): SiteManifest => ({
  title: 't',
  generator: 'g',
  dataDir: '/d',
  cacheDir: null,
  projects: [{ id: 'p', slug: 'p', name: 'p', folder: null, sessions: [s] }],
  agentTypes: [],
  indexErrors: [],
});

describe('abandoned branches: long ones on pages of their own, short ones together (#31)', () => {
  it('has pages bounded by entries, not by forks', async () => {
    const { s } = await forked(2_000, 40);
    expect(s.branches).toHaveLength(2_000);
    const layout = branchLayout(s.branches);
    const routes = sessionRoutes('p', s).map((r) => r.route);
    // The long branch has its page; the 1,999 short ones share 40 pages of alternatives (50 a page).
    expect(routes.filter((r) => r.includes('/branch/'))).toEqual(['s/p/s/branch/1/']);
    expect(routes.filter((r) => r.includes('/branches/'))).toHaveLength(40);
    expect(layout.pages).toHaveLength(40);
    // Every short branch is on exactly one page, in order.
    expect(layout.pages.flat()).toEqual(s.branches.slice(1).map((b) => b.index));
    expect(branchPlace('p', s, 0)).toEqual({ route: 's/p/s/branch/1/', anchor: null });
    expect(branchPlace('p', s, 51)).toEqual({ route: 's/p/s/branches/p2/', anchor: 'branch-52' });
  });

  it('shows each short branch on its page of alternatives, with its anchor and the way back to the fork', async () => {
    const { session, s } = await forked(120, 40);
    const route = 's/p/s/branches/p2/';
    const fragment = renderFragment(session, 'p', s, { kind: 'alternatives' }, 2, route);
    const anchors = [...fragment.transcript.matchAll(/<section class="alternative" id="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(anchors).toEqual(Array.from({ length: 50 }, (_, i) => `branch-${i + 52}`));
    expect(fragment.transcript).toContain('attempt 50</p>');
    expect(fragment.transcript).not.toContain('attempt 49</p>');
    expect(fragment.transcript).toContain(
      '<a class="fork-point" href="../../../../../s/p/s/index.html#e-u0">',
    );
    const view = transcriptPageView(
      manifest(s),
      'p',
      's',
      { kind: 'alternatives' },
      2,
      route,
      { ...fragment, key: 'k' },
      Buffer.from(fragment.transcript),
    );
    expect(view.heading).toBe('Abandoned branches 52–101');
    expect(view.count).toBe(3);
  });

  it('links the fork point to the first branches by name, then to where the others start', async () => {
    const { session, s } = await forked(120, 40);
    const page = renderFragment(session, 'p', s, { kind: 'main' }, 1, 's/p/s/').transcript;
    const note = /<aside class="fork">.*?<\/aside>/s.exec(page)?.[0] ?? '';
    // The long first try and 119 retries, the last of 120 answers being the active one.
    expect(note).toContain('120 abandoned branches');
    expect(note.match(/<a /g)).toHaveLength(21);
    expect(note).toContain('<a href="../../../s/p/s/branch/1/index.html">branch 1</a>');
    expect(note).toContain('<a href="../../../s/p/s/branches/index.html#branch-2">branch 2</a>');
    expect(note).toContain(
      '<a href="../../../s/p/s/branches/index.html#branch-21">100 more from branch 21</a>',
    );
  });
});
