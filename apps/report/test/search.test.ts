import { describe, expect, it } from 'vitest';
import { scriptJson, searchIndexScript } from '../src/views/search.js';

describe('search index', () => {
  it('is a classic script assigning window.CCTRAIL_SEARCH', () => {
    const js = searchIndexScript([{ t: 'a', k: 'session', p: 'p', x: '', u: 's/p/a/index.html', d: null }]);
    expect(js).toMatch(/^window\.CCTRAIL_SEARCH = \[\{"t":"a"/);
    const context: { window: { CCTRAIL_SEARCH?: unknown } } = { window: {} };
    new Function('window', js)(context.window);
    expect(context.window.CCTRAIL_SEARCH).toHaveLength(1);
  });
  it('cannot be broken out of by hostile titles', () => {
    const json = scriptJson({ t: '</script><script>alert(1)</script>\u2028' });
    expect(json).not.toContain('<');
    expect(json).not.toContain('\u2028');
    expect(JSON.parse(json)).toEqual({ t: '</script><script>alert(1)</script>\u2028' });
  });
});
