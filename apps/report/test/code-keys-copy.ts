import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { buildReport } from '../src/build/build.js';
import { filesUnder } from '../src/build/files.js';

// Copies of the built package for the code-keys test (`code-keys.test.ts`): its built code, the site's sources
// and the sources they import, one edit applied. A copy lives inside the package, so that its imports resolve
// from the package's node_modules; it renders with the site bundle the package was built with until an edit of
// the site's sources makes it bundle its own.

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the copies of this process are (removed by the test). */
export const COPIES = join(PACKAGE, `.test-code-keys-${process.pid}`);

/** A copy's folder, for its edit to change files of. */
export interface Copy {
  dist: string;
  site: string;
  src: string;
}

/** A copy of the built package named `name`, `edit` applied to it; returns its `buildReport`. */
export async function builtCopy(
  name: string,
  edit: (copy: Copy) => void = () => {},
): Promise<typeof buildReport> {
  const root = join(COPIES, name);
  const copy = { dist: join(root, 'dist'), site: join(root, 'site'), src: join(root, 'src') };
  if (!existsSync(join(PACKAGE, 'dist', 'index.js'))) throw new Error('build the package first (pnpm build)');
  cpSync(join(PACKAGE, 'dist'), copy.dist, { recursive: true, filter: (src) => !src.endsWith('.map') });
  // Without their source maps (which point to sources the copy does not have), for the test's module loader.
  for (const rel of filesUnder(copy.dist).filter((f) => /^((build|views)\/([^/]+\/)*)?[^/]+\.js$/.test(f))) {
    const file = join(copy.dist, rel);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
  }
  const site = join(PACKAGE, 'site');
  cpSync(site, copy.site, {
    recursive: true,
    filter: (src) => !['node_modules', '.astro', 'dist'].includes(relative(site, src).split('/')[0] ?? ''),
  });
  cpSync(join(PACKAGE, 'src'), copy.src, { recursive: true });
  edit(copy);
  const module = (await import(pathToFileURL(join(copy.dist, 'index.js')).href)) as {
    buildReport: typeof buildReport;
  };
  return module.buildReport;
}

/** Replaces `from` (which must be there) by `to` in a file of a copy. */
export function replaceIn(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${from} is not in ${file}`);
  writeFileSync(file, text.replace(from, to));
}

/** Each file under a folder (relative path) with its identity: a file written again, even with the same bytes, differs. */
export function fileStates(root: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const name of readdirSync(root, { recursive: true }).map(String)) {
    const stat = statSync(join(root, name));
    if (stat.isFile()) states.set(name, `${stat.ino}:${stat.ctimeMs}:${stat.size}`);
  }
  return states;
}
