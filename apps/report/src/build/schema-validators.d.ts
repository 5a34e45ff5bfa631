import type { ValidateFunction } from 'ajv/dist/2020.js';

/** The module of validators the package's build writes into `dist/build/` (`validatorsModule` of `schemas.ts`). */
export declare const index: ValidateFunction;
export declare const session: ValidateFunction;
