import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * ajv, kept apart from `schemas.ts`: a process that has the validators the package's build compiled
 * (`load.ts`) never loads it.
 */

/**
 * The compiler of the schemas, the same for the build's module and for a compilation at run time.
 * The schemas are generated and checked against the meta-schema by core's and the cli's tests, so it skips
 * that check (it doubles the compile time).
 * @param standalone Keep the code, for `validatorsModule`.
 */
export function schemaCompiler(standalone: boolean): Ajv2020 {
  return new Ajv2020({
    strict: true,
    validateSchema: false,
    ...(standalone ? { code: { source: true, esm: true } } : {}),
  });
}
