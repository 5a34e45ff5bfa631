import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll } from 'vitest';

/** The built binary: tests spawn it like a user would. */
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** The repository's fixtures: one folder per scenario, each a projects folder. */
export const FIXTURES = fileURLToPath(new URL('../../../fixtures', import.meta.url));
/** Real transcripts beside the repository, when present. */
export const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/claude-projects', import.meta.url));
export const HAS_CORPUS = existsSync(CORPUS);

/** The scenario folders of `fixtures/`. */
export function fixtureScenarios(): string[] {
  if (!existsSync(FIXTURES)) return [];
  return readdirSync(FIXTURES)
    .filter((name) => statSync(join(FIXTURES, name)).isDirectory())
    .sort()
    .map((name) => join(FIXTURES, name));
}

/** What a run of the binary gave. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Report caches of the tests: never the user's ~/.cache; removed once the test file that ran them is done. */
const TEST_CACHE = join(tmpdir(), `cctrail-test-cache-${process.pid}`);
afterAll(() => rmSync(TEST_CACHE, { recursive: true, force: true }), 0);

/** The home folder of the tests (HOME and CLAUDE_CONFIG_DIR point into it): never the user's ~/.claude. */
const TEST_HOME = join(TEST_CACHE, 'home');

/**
 * Runs `node dist/bin.js …args` and collects its output. Never rejects on a non-zero exit. HOME and
 * CLAUDE_CONFIG_DIR point to an empty temporary folder unless `env` says otherwise.
 *
 * @param args Command-line arguments.
 * @param options Working directory, extra environment, and text for stdin.
 */
export function cctrail(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: options.cwd ?? process.cwd(),
        env: {
          ...process.env,
          NO_COLOR: '1',
          CCTRAIL_DEBUG: '',
          CCTRAIL_CACHE_DIR: TEST_CACHE,
          HOME: TEST_HOME,
          CLAUDE_CONFIG_DIR: join(TEST_HOME, '.claude'),
          ...options.env,
        },
        maxBuffer: 256 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validators = new Map<string, ValidateFunction>();

/**
 * Validates a value against one of the package's JSON Schemas and returns the errors (empty when valid).
 *
 * @param schema `index`, `session` or `stats`.
 */
export function schemaErrors(schema: 'index' | 'session' | 'stats', value: unknown): string[] {
  let validate = validators.get(schema);
  if (!validate) {
    const text = readFileSync(new URL(`../schema/${schema}.schema.json`, import.meta.url), 'utf8');
    validate = ajv.compile(JSON.parse(text));
    validators.set(schema, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .slice(0, 10)
    .map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/** Counts the lines of a file the way a person would: newline-terminated lines plus a last unterminated one. */
export function countLines(path: string): number {
  const bytes = readFileSync(path);
  let lines = 0;
  for (const byte of bytes) if (byte === 0x0a) lines++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) lines++;
  return lines;
}

/** Every `.jsonl` file below a folder. */
export function transcriptFiles(root: string): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      // A workflow run's journal is run metadata, not a transcript (FORMAT.md §13.1).
      else if (entry.isFile() && entry.name.endsWith('.jsonl') && entry.name !== 'journal.jsonl')
        out.push(path);
    }
  }
  return out.sort();
}
