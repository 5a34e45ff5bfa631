// A clean-up that removes files has no deadline: removing a large temporary folder takes what the disk takes,
// and on a loaded 2-core machine that was more than the hook timeout (a 1.6 GB report cache, 10 s), which failed
// `pnpm test` after every test had passed. Every `afterAll`/`afterEach` of the repository's tests that removes
// files passes a timeout of 0 (none).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEST_FOLDERS = ['packages/core/test', 'packages/cli/test', 'apps/report/test', 'scripts'];
/** This file: its examples are strings, not hooks. */
const SELF = fileURLToPath(import.meta.url);

/** The test sources (`.ts`, `.mjs`) under a folder, node_modules aside. */
function sources(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !path.includes('node_modules') && path !== SELF);
}

/**
 * The clean-up hooks of a source that remove files and keep a deadline: `afterAll(…)`/`afterEach(…)` calls
 * (parentheses balanced, strings and templates skipped) whose text calls `rm` or `rmSync` and does not end with
 * `, 0)`.
 *
 * @param text A source file.
 * @returns The line of each such hook.
 */
function timedCleanUps(text) {
  const found = [];
  for (const match of text.matchAll(/\bafter(All|Each)\(/g)) {
    let depth = 0;
    let quote = null;
    let end = -1;
    for (let i = match.index + match[0].length - 1; i < text.length; i++) {
      const char = text[i];
      if (quote) {
        if (char === '\\') i++;
        else if (char === quote) quote = null;
        continue;
      }
      if (char === "'" || char === '"' || char === '`') quote = char;
      else if (char === '(') depth++;
      else if (char === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    const call = text.slice(match.index, end + 1);
    if (/\brm(Sync)?\(/.test(call) && !/,\s*0\s*\)$/.test(call))
      found.push(text.slice(0, match.index).split('\n').length);
  }
  return found;
}

describe('clean-up hooks', () => {
  test('the scanner finds a timed clean-up and passes one without a deadline', () => {
    expect(timedCleanUps('afterAll(() => rm(work, { recursive: true }));\n')).toEqual([1]);
    expect(timedCleanUps("x;\nafterAll(() => {\n  rmSync(')');\n});\n")).toEqual([2]);
    expect(timedCleanUps('afterAll(() => rm(work, { recursive: true }), 0);\n')).toEqual([]);
    expect(timedCleanUps('afterEach(() => page.close());\n')).toEqual([]);
  });

  test('no hook of the tests that removes files has a deadline', () => {
    const timed = TEST_FOLDERS.flatMap((dir) =>
      sources(dir).flatMap((path) =>
        timedCleanUps(readFileSync(path, 'utf8')).map((line) => `${relative(ROOT, path)}:${line}`),
      ),
    );
    expect(timed).toEqual([]);
  });
});
