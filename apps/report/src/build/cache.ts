import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '@cctrail/core/node';
import type { SiteManifest } from '../views/site/site-model.js';
import { nameKey } from './packs.js';

/** Folders of the build cache before packs (`packs.ts`): only packs are read now, so all their files are stale. */
const LEGACY = ['parts', 'fragments'];

/** A temporary file of a pack being written: `<key>.pack.tmp-<pid>`. */
const TEMPORARY = /\.tmp-(\d{1,7})$/;

/**
 * Removes the packs of sessions that are no longer in the archive (or changed), the temporaries of packs whose
 * writer was interrupted, and the files of the cache's folders of before packs.
 */
export function pruneCache(cacheDir: string, manifest: SiteManifest): void {
  const keys = new Set(manifest.projects.flatMap((p) => p.sessions.map((s) => s.key)));
  for (const folder of ['packs', ...LEGACY]) {
    const dir = join(cacheDir, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const temporary = TEMPORARY.exec(name);
      const stale =
        LEGACY.includes(folder) ||
        !keys.has(nameKey(name)) ||
        (temporary !== null && !isRunning(Number(temporary[1])));
      if (stale) rmSync(join(dir, name), { force: true });
    }
  }
}
