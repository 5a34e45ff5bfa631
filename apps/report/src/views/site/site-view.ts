import { commitBase } from '../transcript/commit-links.js';
import type { SiteManifest } from './site-model.js';

/** What every page's frame shows. */
export interface SiteView {
  title: string;
  generator: string;
  /** Start of a commit's link (`<repo>/commit/`), when the report links commit SHAs. */
  commitBase?: string | null;
}

/** The frame of every page, from the site model. */
export function siteOf(m: SiteManifest): SiteView {
  return { title: m.title, generator: m.generator, ...(m.repo ? { commitBase: commitBase(m.repo) } : {}) };
}
