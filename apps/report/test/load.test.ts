import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEMA_VERSION } from '@cctrail/core';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { checkIndex, checkSession, loadIndex, loadSession } from '../src/build/load.js';
import { schemaCompiler } from '../src/build/schema-compiler.js';
import { validatorsModule } from '../src/build/schema-module.js';
import { readSchema } from '../src/build/schemas.js';
import type { Session } from '../src/views/model.js';
import { demoSession } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/** A session as its file holds it: plain JSON, changed by `edit`. */
function sessionJson(edit: (s: Session & Record<string, unknown>) => void = () => {}): unknown {
  const s = JSON.parse(JSON.stringify(demoSession()));
  edit(s);
  return s;
}

/** Writes a value as a file of a fresh folder and returns its path. */
function file(name: string, value: unknown): string {
  const path = join(tempFolder('cctrail-load-'), name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

describe('load', () => {
  it('accepts sessions of the core schema', () => {
    expect(checkSession(sessionJson())).toEqual([]);
    expect(loadSession(file('s.json', sessionJson()))).toMatchObject({ ok: true });
  });

  it('rejects a session file whose entries are not an array, naming the path', () => {
    const bad = sessionJson((s) => Object.assign(s, { entries: {} }));
    const loaded = loadSession(file('s.json', bad));
    expect(loaded).toEqual({ ok: false, errors: ['/entries must be array'] });
  });

  it('rejects a wrong type deep inside an entry, the deepest problem first', () => {
    const bad = sessionJson((s) => {
      const entry = s.entries.find((e) => e.content.some((c) => c.type === 'text'));
      const block = entry?.content.find((c) => c.type === 'text');
      if (!block) throw new Error('the demo session has a text block');
      Object.assign(block, { text: 5 });
    });
    const loaded = loadSession(file('s.json', bad));
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.errors[0]).toMatch(/^\/entries\/\d+\/content\/\d+\/text must be string$/);
    expect(loaded.errors.length).toBeLessThanOrEqual(3);
  });

  it('lists a few readable problems for values that are not sessions', () => {
    expect(checkSession([])).toEqual(['(root) must be object']);
    expect(checkSession(sessionJson((s) => Object.assign(s, { schemaVersion: 1 })))).toEqual([
      `/schemaVersion must be equal to constant ${SCHEMA_VERSION}`,
    ]);
    expect(checkSession(sessionJson((s) => Object.assign(s, { extra: true })))).toEqual([
      "(root) must NOT have additional properties 'extra'",
    ]);
  });

  it('checks index.json', () => {
    expect(checkIndex('x')).toEqual(['(root) must be object']);
    const loaded = loadIndex(file('index.json', { schemaVersion: 1, projects: [{ id: 3, sessions: [{}] }] }));
    expect(loaded).toMatchObject({ ok: false, errors: [expect.stringMatching(/^\(root\) must have/)] });
  });

  it('reports unreadable files instead of throwing', () => {
    const dir = tempFolder('cctrail-load-');
    expect(loadSession(join(dir, 'missing.json'))).toMatchObject({ ok: false });
    expect(loadIndex(join(dir, 'missing.json'))).toMatchObject({ ok: false });
    writeFileSync(join(dir, 'broken.json'), '{"schemaVersion":');
    expect(loadSession(join(dir, 'broken.json'))).toMatchObject({ ok: false });
    // The reasons are published on the session's pages: they name the file, never the local folder it is in.
    for (const name of ['missing.json', 'broken.json']) {
      const loaded = loadSession(join(dir, name));
      const errors = loaded.ok ? [] : loaded.errors;
      expect(errors.join('\n')).toContain(name);
      expect(errors.join('\n')).not.toContain(dir);
    }
  });
});

describe("the build's validators", () => {
  it('answer as the schemas compiled at run time do, errors included', async () => {
    const path = join(tempFolder('cctrail-validators-'), 'schema-validators.mjs');
    writeFileSync(path, validatorsModule());
    const built = (await import(pathToFileURL(path).href)) as Record<'index' | 'session', ValidateFunction>;
    const compiled = {
      index: schemaCompiler(false).compile(readSchema('index')),
      session: schemaCompiler(false).compile(readSchema('session')),
    };
    const values = {
      session: [
        sessionJson(),
        [],
        sessionJson((s) => Object.assign(s, { schemaVersion: 1 })),
        sessionJson((s) => Object.assign(s, { entries: {} })),
        sessionJson((s) => Object.assign(s, { extra: true })),
      ],
      index: ['x', { schemaVersion: 1, projects: [{ id: 3, sessions: [{}] }] }],
    };
    for (const name of ['index', 'session'] as const) {
      for (const value of values[name]) {
        expect(built[name](value)).toBe(compiled[name](value));
        expect(built[name].errors).toEqual(compiled[name].errors);
      }
    }
    expect(built.session(sessionJson())).toBe(true);
    expect(built.session([])).toBe(false);
  });
});
