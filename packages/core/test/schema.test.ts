import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSchema, SCHEMAS, schemaText } from '../scripts/generate-schema.mjs';

describe('JSON Schemas', () => {
  it.each(SCHEMAS.map((spec) => [spec.file, spec] as const))(
    '%s is generated from the current types',
    (file, spec) => {
      const committed = readFileSync(new URL(`../schema/${file}`, import.meta.url), 'utf8');
      expect(schemaText(generateSchema(spec))).toBe(committed);
    },
  );

  it('are draft 2020-12 with a versioned id', () => {
    for (const { file } of SCHEMAS) {
      const schema = JSON.parse(readFileSync(new URL(`../schema/${file}`, import.meta.url), 'utf8'));
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(`urn:cctrail:schema:1:${file.replace('.schema.json', '')}`);
    }
  });
});
