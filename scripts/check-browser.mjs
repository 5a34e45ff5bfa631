// Browser code is typed: the rules that keep the scripts of the pages TypeScript, typed against the DOM and
// typechecked by `pnpm lint` (which runs each package's `typecheck`). Part of the architecture check
// (`check-arch.mjs`).
//
// - `browser-script-typed`: no hand-written `.js`, `.mjs` or `.cjs` file in an app's `site/public/` (the page
//   scripts there are compiled by the build, and git ignores them) nor in a `browser/` folder of a package's
//   or app's `src/` (where the sources of page scripts are, as `.ts`).
// - `browser-code-checked`: every `browser/` folder of a `src/` has a `tsconfig.json` with the DOM's types, and
//   the package's `typecheck` script runs it (`tsc -p <folder>/tsconfig.json`), so a type error in a page
//   script fails `pnpm lint`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gitFiles } from './check-size.mjs';

const SCRIPT = ['.js', '.mjs', '.cjs'];
/** Folders of dependencies and of what tools write, never hand-written. */
const NOT_WRITTEN = new Set(['node_modules', 'dist', '.astro']);

/**
 * The hand-written files of a folder, relative to it: those git does not ignore in a checkout, elsewhere every
 * file but those of dependencies and tools.
 * @param {string} folder
 * @returns {string[]}
 */
function handWritten(folder) {
  if (!existsSync(folder)) return [];
  const written = gitFiles(folder);
  return readdirSync(folder, { recursive: true })
    .map(String)
    .filter((name) => (written ? written.has(name) : !name.split(sep).some((part) => NOT_WRITTEN.has(part))))
    .sort();
}

/**
 * The packages and apps of a repository, as their folders.
 * @param {string} root
 * @returns {string[]}
 */
function workspaces(root) {
  const found = [];
  for (const group of ['packages', 'apps']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group)).sort()) found.push(join(root, group, name));
  }
  return found.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

/**
 * Whether a tsconfig names the DOM's types in its `lib`.
 * @param {string} file
 */
function hasDom(file) {
  try {
    const lib = JSON.parse(readFileSync(file, 'utf8')).compilerOptions?.lib ?? [];
    return lib.some((name) => String(name).toLowerCase() === 'dom');
  } catch {
    return false;
  }
}

/**
 * Every violation of the rules of browser code in the tree at `root`, as `{rule, text}`, sorted by text.
 * @param {string} root
 * @returns {{rule: string, text: string}[]}
 */
export function browserViolations(root) {
  const found = [];
  const untyped = (file) =>
    found.push({
      rule: 'browser-script-typed',
      text: `${relative(root, file)} is a hand-written page script`,
    });
  for (const workspace of workspaces(root)) {
    const publicFolder = join(workspace, 'site', 'public');
    for (const name of handWritten(publicFolder))
      if (SCRIPT.some((extension) => name.endsWith(extension))) untyped(join(publicFolder, name));
    const src = join(workspace, 'src');
    const browserFolders = new Set();
    for (const name of handWritten(src)) {
      const parts = name.split(sep);
      const at = parts.lastIndexOf('browser', parts.length - 2);
      if (at < 0) continue;
      browserFolders.add(parts.slice(0, at + 1).join(sep));
      if (SCRIPT.some((extension) => name.endsWith(extension))) untyped(join(src, name));
    }
    let typecheck = '';
    try {
      typecheck = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')).scripts?.typecheck ?? '';
    } catch {}
    for (const folder of [...browserFolders].sort()) {
      const tsconfig = join(src, folder, 'tsconfig.json');
      const path = relative(workspace, tsconfig).split(sep).join('/');
      if (!existsSync(tsconfig) || !hasDom(tsconfig))
        found.push({
          rule: 'browser-code-checked',
          text: `${relative(root, tsconfig)} is missing or lacks "DOM"`,
        });
      else if (!new RegExp(`\\btsc -p ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(typecheck))
        found.push({
          rule: 'browser-code-checked',
          text: `the typecheck script of ${relative(root, workspace)} does not run tsc -p ${path}`,
        });
    }
  }
  return found.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}
