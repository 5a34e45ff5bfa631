// The reviewed differences of `pnpm check:identical`: a group removes exactly what it names, so that any other
// difference in the same file is still found, and a file laid out otherwise than cctrail writes JSON is compared
// as bytes.
import { describe, expect, test } from 'vitest';
import { explain, Tally } from '../identical/expected.mjs';
import { GROUPS } from '../identical/expected-8ce2fd6.mjs';

const bytes = (text) => Buffer.from(text);
const session = (fields) => `${JSON.stringify({ schemaVersion: 4, id: 'a', entries: [], ...fields })}\n`;

describe('explain', () => {
  const bump = {
    id: 'bump',
    why: 'version 1 → 2',
    files: /\.json$/,
    json: (value, side) => (side === 'ref' && value.v === 1 ? { ...value, v: 2 } : value),
  };

  test('names the groups that account for a difference, and leaves nothing', () => {
    const found = explain(
      { step: 'export', name: 'a.json', ref: bytes('{"v":1,"x":3}\n'), fresh: bytes('{"v":2,"x":3}\n') },
      [bump],
    );
    expect(found).toEqual({ ids: ['bump'], rest: null });
  });

  test('keeps what the groups do not remove, in the same file', () => {
    const found = explain(
      { step: 'export', name: 'a.json', ref: bytes('{"v":1,"x":3}'), fresh: bytes('{"v":2,"x":4}') },
      [bump],
    );
    expect(found.ids).toEqual(['bump']);
    expect(found.rest).toContain('ref: "{\\"v\\":2,\\"x\\":3}"');
  });

  test('compares as bytes a file that is not laid out as cctrail writes JSON', () => {
    const found = explain(
      { step: 'export', name: 'a.json', ref: bytes('{"v":1}'), fresh: bytes('{ "v": 2 }') },
      [bump],
    );
    expect(found.ids).toEqual([]);
    expect(found.rest).toMatch(/^first difference at byte 1/);
  });

  test('rewrites each line of NDJSON and keeps the layout of an indented document', () => {
    const ndjson = explain(
      {
        step: 'export',
        name: 'b.json',
        ref: bytes('{"v":1}\n{"v":1}\n'),
        fresh: bytes('{"v":2}\n{"v":2}\n'),
      },
      [bump],
    );
    expect(ndjson).toEqual({ ids: ['bump'], rest: null });
    const indented = (v) => bytes(`${JSON.stringify({ v, list: [1] }, null, 2)}\n`);
    expect(
      explain({ step: 'stats', name: 'c.json', ref: indented(1), fresh: indented(2) }, [bump]).rest,
    ).toBeNull();
  });

  test('applies a group only to its steps and files, and a file on one side only to its onlyIn group', () => {
    const scoped = { ...bump, steps: ['stats'] };
    expect(
      explain({ step: 'export', name: 'a.json', ref: bytes('{"v":1}'), fresh: bytes('{"v":2}') }, [scoped])
        .ids,
    ).toEqual([]);
    const added = { id: 'added', why: 'new file', files: /^new\.txt$/, onlyIn: 'new' };
    expect(explain({ step: 'export', name: 'new.txt', ref: null, fresh: bytes('x') }, [added])).toEqual({
      ids: ['added'],
      rest: null,
    });
    expect(explain({ step: 'export', name: 'new.txt', ref: bytes('x'), fresh: null }, [added]).rest).toBe(
      'only in ref',
    );
  });

  test('counts pages that may differ in any way only for what narrower groups leave', () => {
    const chrome = {
      id: 'chrome',
      why: 'csp',
      files: /\.html$/,
      text: (text) => text.replace('old-csp', 'csp'),
    };
    const page = { id: 'page', why: 'reader', files: /\.html$/, anyBytes: true };
    const onlyChrome = explain(
      { step: 'report', name: 'i.html', ref: bytes('old-csp<p>a'), fresh: bytes('csp<p>a') },
      [chrome, page],
    );
    expect(onlyChrome).toEqual({ ids: ['chrome'], rest: null });
    const redrawn = explain(
      { step: 'report', name: 'i.html', ref: bytes('old-csp<p>a'), fresh: bytes('csp<p>b') },
      [chrome, page],
    );
    expect(redrawn).toEqual({ ids: ['chrome', 'page'], rest: null });
  });
});

describe("8ce2fd6's groups", () => {
  const judge = (name, ref, fresh, step = 'export') =>
    explain({ step, name, ref: bytes(ref), fresh: bytes(fresh) }, GROUPS);

  test("remove the schema version and a session file's duplicateOf, and nothing else of it", () => {
    const old = session({ schemaVersion: 2, duplicateOf: null, title: 'T' });
    expect(judge('sessions/p/a.json', old, session({ title: 'T' }))).toEqual({
      ids: ['schema-version', 'duplicate-of-in-index-only'],
      rest: null,
    });
    expect(judge('sessions/p/a.json', old, session({ title: 'U' })).rest).toContain('first difference');
    // index.json keeps its duplicateOf: a change there is not explained.
    const index = (of) =>
      `${JSON.stringify({ schemaVersion: 4, projects: [{ sessions: [{ id: 'a', duplicateOf: of }] }] }, null, 2)}\n`;
    expect(judge('index.json', index(null), index('b')).rest).toContain('first difference');
  });

  test('remove the retention notice and the rules of a redaction count, not a different count', () => {
    const notice = 'Claude Code keeps 30 days of transcripts (default; …). Keep more: …\n';
    const ref = 'Report of 1 session, 6 pages; 9 secrets redacted\n';
    const explained = judge(
      '<stderr>',
      ref,
      `Report of 1 session, 6 pages; 9 secrets redacted (9 jwt)\n${notice}`,
      'report',
    );
    expect(explained).toEqual({ ids: ['redacted-by-rule', 'retention-told'], rest: null });
    expect(
      judge('<stderr>', ref, 'Report of 1 session, 6 pages; 8 secrets redacted (8 jwt)\n', 'report').rest,
    ).toContain('first difference');
  });

  test('take the longer search snippets back to the old length, and find a snippet that changed', () => {
    const docs = (snippet) =>
      `window.CCTRAIL_SEARCH_DOCS(0,'${JSON.stringify({ s: [], d: [[0, 0, 'e-1', snippet]] }).replace(/'/g, "\\'")}');\n`;
    expect(
      judge(
        '_cctrail/search/d0.js',
        docs("You: it's short"),
        docs("You: it's short, and longer now"),
        'report',
      ),
    ).toEqual({
      ids: ['search-snippets-240'],
      rest: null,
    });
    expect(judge('_cctrail/search/d0.js', docs('You: one'), docs('You: two'), 'report').rest).toContain(
      'first difference',
    );
  });

  test("drop the sessions' places from the search index's description, and nothing else of it", () => {
    const index = (meta) =>
      `window.CCTRAIL_SEARCH = [];\nwindow.CCTRAIL_SEARCH_FILES = ${JSON.stringify(meta)};\n`;
    const old = { n: 3, k: 64, t: ['a'] };
    expect(
      judge('_cctrail/search-index.js', index(old), index({ ...old, b: [0, 2], f: ['e1', 'e2'] }), 'report'),
    ).toEqual({ ids: ['search-meta-sessions'], rest: null });
    expect(
      judge('_cctrail/search-index.js', index(old), index({ ...old, n: 4, b: [0], f: ['e1'] }), 'report')
        .rest,
    ).toContain('first difference');
  });
});

describe('Tally', () => {
  test('counts by group, keeps the first place, and lists what is left', () => {
    const tally = new Tally();
    tally.add('linear export a.json', { ids: ['bump'], rest: null });
    tally.add('rewind export b.json', { ids: ['bump'], rest: 'first difference at byte 3' });
    expect(tally.byGroup.get('bump')).toEqual({ count: 2, example: 'linear export a.json' });
    expect(tally.unexplained).toEqual(['rewind export b.json: after bump: first difference at byte 3']);
  });
});

describe('pages that may differ in any way', () => {
  test('only where this tree has the mark of the change, when the group names one', () => {
    const agents = {
      id: 'agents',
      why: 'spawn',
      files: /\.html$/,
      anyBytes: true,
      newHas: /reported by spawn/,
    };
    const marked = explain(
      { step: 'report', name: 'a.html', ref: bytes('<p>0'), fresh: bytes('<p>≥ 5 reported by spawn') },
      [agents],
    );
    expect(marked).toEqual({ ids: ['agents'], rest: null });
    const unmarked = explain({ step: 'report', name: 'a.html', ref: bytes('<p>0'), fresh: bytes('<p>1') }, [
      agents,
    ]);
    expect(unmarked.rest).toContain('first difference');
  });
});
