import { describe, expect, it } from 'vitest';
import {
  agentsRoute,
  assetHref,
  branchRoute,
  entryAnchor,
  normalizeRoute,
  pageHref,
  prefixFor,
  sessionRoute,
  sidechainRoute,
} from '../src/views/html/links.js';

describe('links', () => {
  it('computes a relative prefix per page depth', () => {
    expect(prefixFor('')).toBe('');
    expect(prefixFor('agents/')).toBe('../');
    expect(prefixFor('s/p/s/p2/')).toBe('../../../../');
  });
  it('links to index.html explicitly, so file:// works', () => {
    expect(pageHref('', '')).toBe('index.html');
    expect(pageHref('', 'agents/')).toBe('agents/index.html');
    expect(pageHref('s/p/x/', '')).toBe('../../../index.html');
    expect(pageHref('s/p/x/', 's/p/x/p2/', 'e-1')).toBe('../../../s/p/x/p2/index.html#e-1');
    expect(assetHref('agents/x/', '/_cctrail/style.css')).toBe('../../_cctrail/style.css');
  });
  it('normalizes routes', () => {
    expect(normalizeRoute('/a//b')).toBe('a/b/');
    expect(normalizeRoute('/')).toBe('');
  });
  it('names routes of every page kind', () => {
    expect(sessionRoute('p', 's')).toBe('s/p/s/');
    expect(sessionRoute('p', 's', 3)).toBe('s/p/s/p3/');
    expect(sidechainRoute('p', 's', 'agent-1')).toBe('s/p/s/agent/agent-1/');
    expect(sidechainRoute('p', 's', 'agent-1', 2)).toBe('s/p/s/agent/agent-1/p2/');
    expect(branchRoute('p', 's', 0)).toBe('s/p/s/branch/1/');
    expect(agentsRoute()).toBe('agents/');
    expect(agentsRoute('explore')).toBe('agents/explore/');
  });
  it('makes safe anchors from uuids', () => {
    expect(entryAnchor('8a1f-22')).toBe('e-8a1f-22');
    expect(entryAnchor('a"><x')).toBe('e-a___x');
  });
});
