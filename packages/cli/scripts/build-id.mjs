// Writes dist/build-id: a hash of the built code of cctrail and @cctrail/core. Caches are keyed by it (with the
// versions), so a build from changed sources never reuses what an older build cached, version bump or not.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `bundle.mjs` makes of the hashed code afterwards: never part of the hash, whatever an older build left. */
const DERIVED = ['bundle/', 'site-server/'];

const hash = createHash('sha256');
for (const dist of ['../dist', '../../core/dist']) {
  const dir = fileURLToPath(new URL(dist, import.meta.url));
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    if (!name.endsWith('.js') || DERIVED.some((folder) => name.startsWith(folder))) continue;
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(join(dir, name)))
      .update('\0');
  }
}
writeFileSync(new URL('../dist/build-id', import.meta.url), `${hash.digest('hex').slice(0, 16)}\n`);
