import { readFileSync } from 'node:fs';
import { cliVersion, coreVersion } from '../version.js';

let build: string | undefined;

/**
 * What cached results depend on besides their inputs: the versions of `cctrail` and `@cctrail/core`, and the
 * id of the build (`dist/build-id`, a hash of the built code of both), so that code changed without a version
 * bump never reuses what an older build cached.
 */
export function codeVersion(): string {
  if (build === undefined) {
    try {
      build = readFileSync(new URL('../../dist/build-id', import.meta.url), 'utf8').trim();
    } catch {
      build = '';
    }
  }
  return `${cliVersion()}+${coreVersion()}+${build}`;
}
