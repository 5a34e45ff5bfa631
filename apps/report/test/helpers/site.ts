import { buildManifest, listArchive } from '../../src/build/manifest.js';
import { runSessionPass } from '../../src/build/session-pass.js';
import type { SiteManifest } from '../../src/views/site/site-model.js';

/**
 * The site model of an archive folder as a build computes it: one read of each session (its part and
 * fragments cached in `cacheDir`), then the manifest.
 */
export async function siteOf(dataDir: string, cacheDir: string, title = 't'): Promise<SiteManifest> {
  const listing = listArchive(dataDir);
  const jobs = listing.projects.flatMap((p) => p.sessions.map((s) => ({ ...s, part: null })));
  const parts = await runSessionPass(jobs, cacheDir, () => {});
  return buildManifest({ listing, parts, cacheDir, title });
}
