// The comparison behind `pnpm check:identical`: equal trees pass, and every kind of difference is named.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { countLines } from '../check-size.mjs';
import { compareRuns, compareTrees, firstDifference, maskBuildDependent } from '../identical/compare.mjs';

const made = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}, 0);

/** A new temporary folder holding `files` (path → text). */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'cctrail-compare-'));
  made.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe('compareTrees', () => {
  const files = { 'index.html': '<p>a</p>\n', 's/one/index.html': 'line 1\nline 2\n' };

  test('finds nothing in two equal trees', () => {
    expect(compareTrees(tree(files), tree(files))).toEqual([]);
  });

  test('names files on one side only, then files whose bytes differ', () => {
    const ref = tree({ ...files, 'gone.json': '{}' });
    const fresh = tree({ ...files, 's/one/index.html': 'line 1\nline 3\n', 'new.json': '{}' });
    const found = compareTrees(ref, fresh);
    expect(found).toHaveLength(3);
    expect(found[0]).toBe('gone.json: only in ref');
    expect(found[1]).toBe('new.json: only in new');
    expect(found[2]).toContain('s/one/index.html: first difference at byte 12 (line 2); sizes 14 and 14');
    expect(found[2]).toContain('ref: "line 2"');
    expect(found[2]).toContain('new: "line 3"');
  });

  test("masks the export state's fingerprints, which differ between builds by design", () => {
    const state = (print) =>
      `{\n "sessions": {\n  "a.json": {\n   "fingerprint": "${print}",\n   "redacted": 0\n  }\n }\n}\n`;
    const ref = tree({ '.cctrail-state.json': state('0123abcd') });
    expect(compareTrees(ref, tree({ '.cctrail-state.json': state('fedc9876') }), maskBuildDependent)).toEqual(
      [],
    );
    const other = tree({
      '.cctrail-state.json': state('fedc9876').replace('"redacted": 0', '"redacted": 1'),
    });
    expect(compareTrees(ref, other, maskBuildDependent)).toHaveLength(1);
  });
});

describe('compareRuns', () => {
  const run = (status, stdout, stderr = '') => ({
    status,
    stdout: Buffer.from(stdout),
    stderr: Buffer.from(stderr),
  });

  test('compares exit codes, stdout and stderr', () => {
    expect(compareRuns(run(0, '{}'), run(0, '{}'))).toEqual([]);
    expect(compareRuns(run(0, '{}'), run(2, '{}'))).toEqual(['exit code: ref 0, new 2']);
    const [stderr] = compareRuns(run(0, '', '11 secrets redacted'), run(0, '', '9 secrets redacted'));
    expect(stderr).toMatch(/^<stderr>: first difference at byte 0 \(line 1\)/);
  });
});

describe('firstDifference', () => {
  test('tells a prefix from a longer file', () => {
    expect(firstDifference(Buffer.from('abc'), Buffer.from('abc'))).toBeNull();
    expect(firstDifference(Buffer.from('abc'), Buffer.from('abcd'))).toContain(
      'at byte 3 (line 1); sizes 3 and 4',
    );
  });
});

describe('countLines', () => {
  test('counts a last line without a newline, and not the empty end after one', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\n\n')).toBe(2);
  });
});

describe('firstDifference at the first byte', () => {
  test('shows the start of each side, not the text after their last newline', () => {
    const found = firstDifference(Buffer.from('abc\nlast\n'), Buffer.from('xbc\nlast\n'));
    expect(found).toContain('ref: "abc"');
    expect(found).toContain('new: "xbc"');
  });
});
