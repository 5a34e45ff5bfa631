import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SiteManifest } from '../views/site/site-model.js';

/** Removes cached parts and fragments of sessions that are no longer in the archive (or changed). */
export function pruneCache(cacheDir: string, manifest: SiteManifest): void {
  const keys = new Set(manifest.projects.flatMap((p) => p.sessions.map((s) => s.key)));
  for (const folder of ['parts', 'fragments']) {
    const dir = join(cacheDir, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const key = name.split(/[-.]/)[0] ?? '';
      if (!keys.has(key)) rmSync(join(dir, name), { force: true });
    }
  }
}
