// pnpm's hooks for this workspace. `beforePacking` runs when `pnpm pack` or `pnpm publish` (and so `changeset
// publish`) makes a package's tarball: it shapes the package.json that is published, never the one on disk.
'use strict';

/**
 * The `cctrail` package ships its runtime dependencies inlined in its bundle (`packages/cli/scripts/bundle.mjs`
 * inlines every package it imports but those its `bundle.external` field names), so its published manifest lists
 * only the external ones: `npm install cctrail` installs one package, and a dependency added to the CLI later is
 * bundled with no other change.
 *
 * @param {Record<string, any>} pkg The manifest about to be packed.
 */
function beforePacking(pkg) {
  if (pkg.name !== 'cctrail') return pkg;
  const external = new Set(pkg.bundle?.external ?? []);
  const kept = Object.entries(pkg.dependencies ?? {}).filter(([name]) => external.has(name));
  if (kept.length > 0) pkg.dependencies = Object.fromEntries(kept);
  else delete pkg.dependencies;
  delete pkg.bundle;
  return pkg;
}

module.exports = { hooks: { beforePacking } };
