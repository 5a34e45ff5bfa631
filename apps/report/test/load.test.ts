import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkIndex, checkSession, loadIndex, loadSession } from '../src/build/load.js';
import { demoSession } from './helpers/demo.js';

describe('load', () => {
  it('accepts sessions of the core schema', () => {
    expect(checkSession(JSON.parse(JSON.stringify(demoSession())))).toEqual([]);
  });
  it('lists what is wrong with a session file', () => {
    expect(checkSession([])).toEqual(['session file is not a JSON object']);
    expect(checkSession({ schemaVersion: 2, id: 1, entries: [{}] })).toEqual(
      expect.arrayContaining([
        'unsupported schemaVersion 2',
        'id is not a string',
        'entries[0] lacks uuid, kind or content',
        'tools is not an array',
      ]),
    );
  });
  it('checks index.json', () => {
    expect(
      checkIndex({ schemaVersion: 1, projects: [{ id: 'p', sessions: [{ id: 's', file: 'p/s.json' }] }] }),
    ).toEqual([]);
    expect(checkIndex({ schemaVersion: 1, projects: [{ id: 3, sessions: [{}] }] })).toEqual([
      'projects[0].id is not a string',
      'projects[0].sessions[0] needs string id and file',
    ]);
    expect(checkIndex('x')).toEqual(['index.json is not a JSON object']);
  });
  it('reads files, reporting problems instead of throwing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cctrail-load-'));
    writeFileSync(join(dir, 's.json'), JSON.stringify(demoSession()));
    expect(loadSession(join(dir, 's.json')).ok).toBe(true);
    expect(loadSession(join(dir, 'missing.json'))).toMatchObject({ ok: false });
    expect(loadIndex(join(dir, 'missing.json'))).toMatchObject({ ok: false });
  });
});
