import { readFileSync } from 'node:fs';

const cached = new Map<string, string>();

function versionAt(manifest: URL): string {
  const key = manifest.href;
  let version = cached.get(key);
  if (version === undefined) {
    try {
      version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      version = '0.0.0';
    }
    cached.set(key, version);
  }
  return version;
}

/** The versions of `cctrail` and `@cctrail/core`, set by the build of the published bundle (`scripts/bundle.mjs`). */
declare const CCTRAIL_BUNDLED_VERSIONS: { cli: string; core: string } | undefined;

/** The version of the `cctrail` package, read from its package.json. */
export function cliVersion(): string {
  if (typeof CCTRAIL_BUNDLED_VERSIONS !== 'undefined') return CCTRAIL_BUNDLED_VERSIONS.cli;
  return versionAt(new URL('../package.json', import.meta.url));
}

/** The version of `@cctrail/core` in use (its output can change with it even when the CLI's does not). */
export function coreVersion(): string {
  if (typeof CCTRAIL_BUNDLED_VERSIONS !== 'undefined') return CCTRAIL_BUNDLED_VERSIONS.core;
  return versionAt(new URL('../package.json', import.meta.resolve('@cctrail/core')));
}
