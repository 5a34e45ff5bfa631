import { setFlagsFromString } from 'node:v8';

/**
 * V8's tier-up budget for TurboFan, in bytecode executed per function before it is considered for
 * optimization (66 KiB by default in Node 20's V8).
 *
 * cctrail reads transcripts whose records come in dozens of shapes. With the default budget, the functions that
 * read records are optimized after a few sessions, then deoptimized each time a record shape they have not seen
 * arrives ("wrong map"), or a shape dies with the session that used it ("weak objects"), and optimized again,
 * many times over. With this budget, functions tier up once their feedback has settled: far fewer compilations,
 * and no deoptimization (figures in BENCHMARKS.md). Maglev (Node 22+) has its own budget and is not affected.
 */
export const TURBOFAN_BUDGET = 1_000_000;

/**
 * The V8 flags cctrail sets for itself: none that `node`'s own command line already sets, so
 * `node --interrupt-budget=… cctrail …` still wins.
 *
 * @param execArgv `process.execArgv`.
 */
export function tuningFlags(execArgv: readonly string[]): string[] {
  const given = execArgv.some((arg) => /^--interrupt[-_]budget(=|$)/.test(arg));
  return given ? [] : [`--interrupt-budget=${TURBOFAN_BUDGET}`];
}

/**
 * Sets cctrail's V8 flags for this process and the worker threads it starts later. Call it first, before
 * the modules that do the work are loaded.
 *
 * @param execArgv `process.execArgv`.
 */
export function tuneV8(execArgv: readonly string[] = process.execArgv): void {
  for (const flag of tuningFlags(execArgv)) setFlagsFromString(flag);
}
