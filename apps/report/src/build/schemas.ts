import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Core's generated JSON Schemas (`@cctrail/core/schema/*`, version 1), which the report validates its input
 * with (`load.ts`). The package's build compiles them once into a module of validators (`schema-module.ts`,
 * `dist/build/schema-validators.js`), so that no process or worker compiles them again: compiling took about
 * a second a worker.
 */

/** The archive files core has a schema for. */
export type SchemaName = 'index' | 'session';

export const SCHEMA_NAMES: readonly SchemaName[] = ['index', 'session'];

/**
 * Where a bundle that inlines core (the `cctrail` package's) finds core's schema files: a folder relative to the
 * bundle, set by its build. Elsewhere core's package has them.
 */
declare const CCTRAIL_BUNDLED_SCHEMAS: string | undefined;

const require = createRequire(import.meta.url);

/** The JSON Schema of one archive file, parsed. */
export function readSchema(name: SchemaName): object {
  const path =
    typeof CCTRAIL_BUNDLED_SCHEMAS === 'undefined'
      ? require.resolve(`@cctrail/core/schema/${name}.schema.json`)
      : new URL(`${CCTRAIL_BUNDLED_SCHEMAS}${name}.schema.json`, import.meta.url);
  return JSON.parse(readFileSync(path, 'utf8')) as object;
}
