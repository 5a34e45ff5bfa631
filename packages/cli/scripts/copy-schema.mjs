// Publishes core's JSON Schemas as the cli's own `schema/*.json` (`cctrail/schema/*`), byte for byte: core
// generates them from its types (`@cctrail/core/schema/*`); the cli only ships copies. Run by `build`; a test
// checks the copies are current.
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The schema files the cli publishes, each the same file as core's. */
export const SCHEMA_FILES = ['index.schema.json', 'session.schema.json', 'stats.schema.json'];

const require = createRequire(import.meta.url);

/** The path of one of core's schema files. */
export function coreSchemaPath(file) {
  return require.resolve(`@cctrail/core/schema/${file}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of SCHEMA_FILES) {
    copyFileSync(coreSchemaPath(file), fileURLToPath(new URL(`../schema/${file}`, import.meta.url)));
  }
}
