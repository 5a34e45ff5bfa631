import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coreSchemaPath, SCHEMA_FILES } from '../scripts/copy-schema.mjs';
import { schemaErrors } from './helpers.js';

describe('JSON Schemas', () => {
  it.each(SCHEMA_FILES)('%s is the same file as core’s (generated from the current types)', (file) => {
    const published = readFileSync(new URL(`../schema/${file}`, import.meta.url), 'utf8');
    expect(published).toBe(readFileSync(coreSchemaPath(file), 'utf8'));
  });

  it('are draft 2020-12 and compile', () => {
    for (const name of ['index', 'session', 'stats'] as const) {
      const schema = JSON.parse(
        readFileSync(new URL(`../schema/${name}.schema.json`, import.meta.url), 'utf8'),
      );
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schemaErrors(name, {})).not.toEqual([]);
    }
  });
});
