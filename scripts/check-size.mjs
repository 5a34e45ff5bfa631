// No hand-written source file over 300 lines: lists every `.ts`, `.js`, `.mjs`, `.cjs`, `.astro` and `.css` file
// under the repository's `scripts/`, and the `src/`, `scripts/` and `test/` of every package and app and the
// `site/` of apps, that is longer, and exits 1 if there is one. Hand-written: in a git checkout, the files git does not
// ignore (what a build writes, such as the report's page scripts in `site/public/_cctrail/`, is ignored);
// elsewhere every file but those of `node_modules/`, `dist/` and `.astro/`. `node scripts/check-size.mjs [ROOT]`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The most lines a source file may have. */
export const MAX_LINES = 300;
const EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.astro', '.css'];
const DECLARATIONS = ['.d.ts', '.d.mts', '.d.cts'];
/** Folders of dependencies and of what tools write, never hand-written. */
const NOT_WRITTEN = new Set(['node_modules', 'dist', '.astro']);

/**
 * The source folders of a repository: its `scripts`, the `src`, `scripts` and `test` of every package and app
 * (tests are code too), and the `site` of apps.
 * @param {string} root
 * @returns {string[]}
 */
export function sourceFolders(root) {
  const folders = [join(root, 'scripts')];
  for (const group of ['packages', 'apps']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group)).sort()) {
      folders.push(
        join(root, group, name, 'src'),
        join(root, group, name, 'scripts'),
        join(root, group, name, 'test'),
      );
      if (group === 'apps') folders.push(join(root, group, name, 'site'));
    }
  }
  return folders.filter((folder) => existsSync(folder));
}

/**
 * The files of a folder that are not ignored by git (relative to it), or null when it is not in a git checkout.
 * @param {string} folder
 * @returns {Set<string> | null}
 */
export function gitFiles(folder) {
  const run = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: folder,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) return null;
  return new Set(
    run.stdout
      .split('\0')
      .filter((file) => file !== '')
      .map((file) => file.split('/').join(sep)),
  );
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
    const written = gitFiles(folder);
    for (const name of readdirSync(folder, { recursive: true }).map(String)) {
      if (!EXTENSIONS.some((extension) => name.endsWith(extension))) continue;
      if (DECLARATIONS.some((extension) => name.endsWith(extension))) continue;
      if (written ? !written.has(name) : name.split(sep).some((part) => NOT_WRITTEN.has(part))) continue;
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
