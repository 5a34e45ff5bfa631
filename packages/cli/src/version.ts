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

/** The version of the `cctrail` package, read from its package.json. */
export function cliVersion(): string {
  return versionAt(new URL('../package.json', import.meta.url));
}

/** The version of `@cctrail/core` in use (its output can change with it even when the CLI's does not). */
export function coreVersion(): string {
  return versionAt(new URL('../package.json', import.meta.resolve('@cctrail/core')));
}
