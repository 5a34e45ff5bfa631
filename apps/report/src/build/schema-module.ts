import standaloneCode from 'ajv/dist/standalone/index.js';
import { schemaCompiler } from './schema-compiler.js';
import { readSchema, SCHEMA_NAMES } from './schemas.js';

/**
 * The source of an ES module exporting a validator of each of core's schemas by its name (`index`, `session`):
 * ajv's standalone code of the same compiler `load.ts` would use at run time. The package's build writes it as
 * `dist/build/schema-validators.js` (`bundle-site.ts`).
 */
export function validatorsModule(): string {
  const ajv = schemaCompiler(true);
  for (const name of SCHEMA_NAMES) ajv.addSchema(readSchema(name), name);
  return standaloneCode.default(ajv, Object.fromEntries(SCHEMA_NAMES.map((n) => [n, n])));
}
