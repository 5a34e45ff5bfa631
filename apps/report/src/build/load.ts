import { constants } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { ArchiveIndex, Session } from '../views/model.js';
import { readSchema, SCHEMA_NAMES, type SchemaName } from './schemas.js';

/**
 * The one way data enters the report: `index.json` and session files of an archive folder, validated against
 * core's generated JSON Schemas (`@cctrail/core/schema/*`, version 1). Problems are returned as messages, never
 * thrown, so a bad file is listed with its problem instead of breaking the build.
 */

/** A value read from a file, or the reasons it could not be used. */
export type Loaded<T> = { ok: true; value: T } | { ok: false; errors: string[]; tooLarge?: true };

/** At most this many problems are listed for one file: the first ones say what is wrong. */
const MAX_ERRORS = 3;

// Not `allErrors`: validation stops at the first problem, which keeps large sessions fast.
/** Validators compiled by the package's build (`schemas.ts`); none when the code runs from its sources. */
const prebuilt: Partial<Record<SchemaName, ValidateFunction>> = await import('./schema-validators.js').catch(
  () => ({}),
);
const validators = new Map<SchemaName, ValidateFunction>();
/** ajv, loaded only when the build's validators are missing. */
const compiler = SCHEMA_NAMES.every((name) => prebuilt[name])
  ? null
  : (await import('./schema-compiler.js')).schemaCompiler(false);

/** The validator of one schema: the build's, else compiled once per process (or worker). */
function validator(name: SchemaName): ValidateFunction {
  let validate = validators.get(name) ?? prebuilt[name];
  if (!validate) {
    if (!compiler) throw new Error(`no validator of the ${name} schema`);
    validate = compiler.compile(readSchema(name));
    validators.set(name, validate);
  }
  return validate;
}

/** One schema violation as a person reads it: where in the file, then what is wrong. */
function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? '(root)' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let detail = '';
  if (error.keyword === 'const') detail = ` ${JSON.stringify(params.allowedValue)}`;
  else if (error.keyword === 'enum') detail = ` ${JSON.stringify(params.allowedValues)}`;
  else if (error.keyword === 'additionalProperties') detail = ` '${String(params.additionalProperty)}'`;
  return `${at} ${error.message ?? 'is invalid'}${detail}`;
}

function depth(error: ErrorObject): number {
  return error.instancePath.split('/').length;
}

/** Validates a value against one of core's schemas. Returns the problems found (empty when valid). */
function check(name: SchemaName, value: unknown): string[] {
  const validate = validator(name);
  if (validate(value)) return [];
  // A union (`anyOf`) lists the failure of every alternative; the deepest is the one that matched the value's
  // shape furthest, so the deepest come first.
  const errors = [...(validate.errors ?? [])].sort((a, b) => depth(b) - depth(a));
  const messages = [...new Set(errors.map(describe))];
  return messages.length > 0 ? messages.slice(0, MAX_ERRORS) : [`${name} does not match its schema`];
}

/** Checks a value against the schema of `index.json`. Returns the problems found (empty when valid). */
export function checkIndex(value: unknown): string[] {
  return check('index', value);
}

/** Checks a value against the schema of a session file. Returns the problems found (empty when valid). */
export function checkSession(value: unknown): string[] {
  return check('session', value);
}

/**
 * The most bytes of JSON a file read whole may hold: its text must fit in one string (V8 holds at most
 * 2^29 − 24 code units). A larger one would first take its size in memory (1 GB for a session of a million
 * lines), then fail.
 */
const MAX_JSON_BYTES = constants.MAX_STRING_LENGTH;

/**
 * The most bytes of JSON a session file read whole may hold: `MAX_JSON_BYTES`, or less for tests
 * (`CCTRAIL_TEST_SESSION_JSON_LIMIT`), so that a small session takes the path of one over the limit, read page
 * by page (`paged-session.ts`).
 */
export function sessionJsonLimit(): number {
  const lowered = Number(process.env.CCTRAIL_TEST_SESSION_JSON_LIMIT);
  return Number.isSafeInteger(lowered) && lowered > 0 ? Math.min(lowered, MAX_JSON_BYTES) : MAX_JSON_BYTES;
}

/** `123 bytes`, `512 MiB`. */
function sizeText(n: number): string {
  return n < 2 ** 20 ? `${n} bytes` : `${Math.round(n / 2 ** 20).toLocaleString('en-US')} MiB`;
}

/** Why a session too large to read has no transcript (it says nothing of where the file is: pages show it). */
function tooLarge(what: string): Loaded<never> {
  return {
    ok: false,
    errors: [
      `${what} a report can read: its transcript is not shown (\`cctrail export\` writes every entry)`,
    ],
    tooLarge: true,
  };
}

/**
 * Why a file could not be read, naming it by its name alone: the reason is shown on the session's pages, which are
 * published, and must not give the local folder of the archive or the report's cache.
 */
export function fileError(file: string, error: unknown): string {
  const name = basename(file);
  return `cannot read ${name}: ${String((error as Error)?.message ?? error)
    .split(file)
    .join(name)}`;
}

/**
 * The JSON value of a file of at most `limit` bytes of JSON (a compressed file is decompressed up to that many
 * bytes, and refused past them, without taking its whole size in memory).
 */
function readJson(file: string, limit = MAX_JSON_BYTES): Loaded<unknown> {
  try {
    const size = statSync(file).size;
    // `cctrail report`'s own archive keeps its session files Brotli-compressed (`….json.br`).
    if (file.endsWith('.br')) {
      const text = brotliDecompressSync(readFileSync(file), { maxOutputLength: limit }).toString('utf8');
      return { ok: true, value: JSON.parse(text) };
    }
    if (size > limit)
      return tooLarge(`the session file is ${sizeText(size)}, more than the ${sizeText(limit)}`);
    return { ok: true, value: JSON.parse(readFileSync(file, 'utf8')) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return tooLarge(`the session is more than the ${sizeText(limit)} of JSON`);
    return { ok: false, errors: [fileError(file, error)] };
  }
}

/** Reads and validates `index.json`. */
export function loadIndex(file: string): Loaded<ArchiveIndex> {
  const read = readJson(file);
  if (!read.ok) return read;
  const errors = checkIndex(read.value);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: read.value as ArchiveIndex };
}

/**
 * Reads and validates one session file.
 * @param limit The most bytes of JSON it may hold (see `MAX_JSON_BYTES`): a larger one is refused with its reason.
 */
export function loadSession(file: string, limit = sessionJsonLimit()): Loaded<Session> {
  const read = readJson(file, limit);
  if (!read.ok) return read;
  const errors = checkSession(read.value);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: read.value as Session };
}
