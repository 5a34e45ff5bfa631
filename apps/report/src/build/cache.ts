import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '@cctrail/core/node';
import type { SiteManifest } from '../views/site/site-model.js';
import { nameKey } from './packs.js';

/** Folders of the build cache before packs (`packs.ts`): only packs are read now, so all their files are stale. */
const LEGACY = ['parts', 'fragments'];

/** A file the build cache writes: its name starts with a session key (16 hex digits) then `-` or `.`. */
const CACHE_FILE = /^[0-9a-f]{16}[-.]/;

/** A temporary file of a pack being written: `<key>.pack.tmp-<pid>`. */
const TEMPORARY = /\.tmp-(\d{1,7})$/;

/**
 * Removes the packs of sessions that are no longer in the archive (or changed), the temporaries of packs whose
 * writer was interrupted, and the files of the cache's folders of before packs. Only files named as the cache names
 * its own are removed: a folder or another file put there by hand is left as it is.
 */
export function pruneCache(cacheDir: string, manifest: SiteManifest): void {
  const keys = new Set(manifest.projects.flatMap((p) => p.sessions.map((s) => s.key)));
  for (const folder of ['packs', ...LEGACY]) {
    const dir = join(cacheDir, folder);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const { name } = entry;
      if (!entry.isFile() || !CACHE_FILE.test(name)) continue;
      const temporary = TEMPORARY.exec(name);
      const stale =
        LEGACY.includes(folder) ||
        !keys.has(nameKey(name)) ||
        (temporary !== null && !isRunning(Number(temporary[1])));
      if (stale) rmSync(join(dir, name), { force: true });
    }
  }
}
