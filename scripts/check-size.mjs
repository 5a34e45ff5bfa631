// No source file over 300 lines: lists every `.ts`, `.mjs` and `.astro` file under packages/*/src, apps/*/src and
// apps/*/site/src that is longer, and exits 1 if there is one. `node scripts/check-size.mjs [ROOT]`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The most lines a source file may have. */
export const MAX_LINES = 300;
const EXTENSIONS = ['.ts', '.mjs', '.astro'];

/**
 * The source folders of a repository: `src` of every package and app, and the `site/src` of apps.
 * @param {string} root
 * @returns {string[]}
 */
export function sourceFolders(root) {
  const folders = [];
  for (const group of ['packages', 'apps']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group)).sort()) {
      folders.push(join(root, group, name, 'src'));
      if (group === 'apps') folders.push(join(root, group, name, 'site', 'src'));
    }
  }
  return folders.filter((folder) => existsSync(folder));
}

/**
 * The number of lines of a text (a last line without a newline counts; the empty end after a newline does not).
 * @param {string} text
 * @returns {number}
 */
export function countLines(text) {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/**
 * The source files of a repository over `max` lines, longest first, with paths relative to the root.
 * @param {string} root
 * @param {number} [max]
 * @returns {{file: string, lines: number}[]}
 */
export function oversizedFiles(root, max = MAX_LINES) {
  const found = [];
  for (const folder of sourceFolders(root)) {
    for (const name of readdirSync(folder, { recursive: true }).map(String)) {
      if (!EXTENSIONS.some((extension) => name.endsWith(extension)) || name.endsWith('.d.ts')) continue;
      const file = join(folder, name);
      const lines = countLines(readFileSync(file, 'utf8'));
      if (lines > max) found.push({ file: relative(root, file), lines });
    }
  }
  return found.sort((a, b) => b.lines - a.lines || (a.file < b.file ? -1 : 1));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(process.argv[2] ?? '.');
  const found = oversizedFiles(root);
  for (const { file, lines } of found) console.error(`${file}: ${lines} lines (at most ${MAX_LINES})`);
  if (found.length > 0) {
    console.error(`check-size: ${found.length} source file(s) over ${MAX_LINES} lines`);
    process.exit(1);
  }
  console.log(`check-size: no source file over ${MAX_LINES} lines`);
}
