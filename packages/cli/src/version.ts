import { readFileSync } from 'node:fs';

let cached: string | null = null;

/** The version of the `cctrail` package, read from its package.json. */
export function cliVersion(): string {
  if (cached === null) {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    cached = manifest.version ?? '0.0.0';
  }
  return cached;
}
