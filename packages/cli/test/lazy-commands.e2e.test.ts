import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS, commandHelp } from '../src/main.js';
import { CORPUS, FIXTURES, HAS_CORPUS } from './helpers.js';

/**
 * Which modules a run of the CLI loads, in every thread: a module hook registered before the CLI starts
 * (`--import`) appends the URL of each module loaded to a file.
 */
const HOOKS = `data:text/javascript,${encodeURIComponent(
  "import { appendFileSync } from 'node:fs';\n" +
    'export async function load(url, context, next) {\n' +
    "  appendFileSync(process.env.CCTRAIL_TEST_LOADED, url + '\\n');\n" +
    '  return next(url, context);\n' +
    '}\n',
)}`;
const REGISTER = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module';\nregister(${JSON.stringify(HOOKS)});\n`,
)}`;

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../dist/bundle/bin.js', import.meta.url));
const HAS_BUNDLE = existsSync(BUNDLE);

const work = await mkdtemp(join(tmpdir(), 'cctrail-lazy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 0);
let runs = 0;

/** Runs a binary of the CLI; resolves to its exit code, stdout, and the file names of the modules it loaded. */
function run(
  bin: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; loaded: string[] }> {
  const log = join(work, `loaded-${++runs}.txt`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', REGISTER, bin, ...args],
      {
        env: {
          ...process.env,
          NO_COLOR: '1',
          CCTRAIL_TEST_LOADED: log,
          CCTRAIL_CACHE_DIR: join(work, 'cache'),
          HOME: join(work, 'home'),
          CLAUDE_CONFIG_DIR: join(work, 'home', '.claude'),
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
        const loaded = urls.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
        resolve({ code, stdout, loaded });
      },
    );
  });
}

/** The modules that do a command's work: `commands/<name>-run.js` (a chunk named so in the bundle). */
const implementations = (loaded: readonly string[]) =>
  loaded
    .map((path) => /\/commands\/(\w+)-run\.js$|\/bundle\/(\w+)-run-\w+\.js$/.exec(path))
    .flatMap((m) => (m ? [m[1] ?? m[2]] : []));

/** The modules of the unbundled CLI's dist, relative to it. */
const ownModules = (loaded: readonly string[]) =>
  loaded.flatMap((path) => {
    const at = path.indexOf('/packages/cli/dist/');
    return at < 0 ? [] : [path.slice(at + '/packages/cli/dist/'.length)];
  });

describe('commands are loaded when they run', () => {
  it.each(['--version', '--help', 'stats --help', 'help report'])(
    '`cctrail %s` loads the command table only',
    async (line) => {
      const result = await run(BIN, line.split(' '));
      expect(result.code).toBe(0);
      expect(implementations(result.loaded)).toEqual([]);
      const own = ownModules(result.loaded);
      expect(own).toContain('main.js');
      // No transcript reading (core), no redaction, no archive, no report: the table is names, options and help.
      expect(result.loaded.filter((path) => path.includes('/packages/core/'))).toEqual([]);
      expect(own.filter((path) => /^(privacy|archive|serve|runtime\/job)/.test(path))).toEqual([]);
    },
  );

  it('`cctrail stats` loads stats and no other command', async () => {
    const result = await run(BIN, ['stats', join(FIXTURES, 'compaction'), '--json', '--no-cache']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).totals.sessions).toBeGreaterThan(0);
    expect(new Set(implementations(result.loaded))).toEqual(new Set(['stats']));
    const own = ownModules(result.loaded);
    // What only `export` and `report` write: the archive's files, the report's site.
    expect(own.filter((path) => /^(archive\/export-archive|serve\/|open-report)/.test(path))).toEqual([]);
    expect(result.loaded.filter((path) => path.includes('/apps/report/'))).toEqual([]);
  });

  it.skipIf(!HAS_BUNDLE)('the bundle loads the command table only for help and version', async () => {
    for (const args of [['--version'], ['stats', '--help']]) {
      const result = await run(BUNDLE, args);
      expect(result.code).toBe(0);
      expect(implementations(result.loaded)).toEqual([]);
      // index.js is the package's API (redaction among it), not what the binary loads.
      expect(result.loaded.filter((path) => path.endsWith('/bundle/index.js'))).toEqual([]);
    }
    const stats = await run(BUNDLE, ['stats', join(FIXTURES, 'compaction'), '--json', '--no-cache']);
    expect(new Set(implementations(stats.loaded))).toEqual(new Set(['stats']));
  });

  it.skipIf(!HAS_BUNDLE || !HAS_CORPUS)(
    'the bundle prints the same statistics as the unbundled CLI',
    async () => {
      const [bundled, unbundled] = await Promise.all([
        run(BUNDLE, ['stats', CORPUS, '--json', '--no-cache']),
        run(BIN, ['stats', CORPUS, '--json', '--no-cache']),
      ]);
      expect(bundled.code).toBe(0);
      expect(bundled.stdout).toBe(unbundled.stdout);
      expect(JSON.parse(bundled.stdout).totals.sessions).toBe(18);
    },
  );
});

describe("the report's highlighter", () => {
  /** A report of sessions with TypeScript fences: their code is highlighted by shiki's WebAssembly engine. */
  const highlighted = async (bin: string) => {
    const out = join(work, `report-${++runs}`);
    const result = await run(bin, ['report', join(FIXTURES, 'duplicates'), '-o', out]);
    expect(result.code).toBe(0);
    const page = readFileSync(
      join(out, 's', 'home-dev-duplicates', '9f6b127c-d50d-4dcf-99e7-ee5b55c93a6c', 'index.html'),
      'utf8',
    );
    expect(page).toContain('class="shiki cctrail"');
    return result.loaded;
  };

  it("reads the engine's bytes from onig.wasm, not from shiki's base64 module", async () => {
    const loaded = await highlighted(BIN);
    expect(loaded.filter((path) => path.includes('/views/markdown/highlight.js'))).not.toEqual([]);
    expect(loaded.filter((path) => path.endsWith('/wasm-inlined.mjs'))).toEqual([]);
  });

  it.skipIf(!HAS_BUNDLE)("reads them from the bundle's onig.wasm", async () => {
    const loaded = await highlighted(BUNDLE);
    expect(loaded.filter((path) => /\/bundle\/wasm-\w+\.js$/.test(path))).toEqual([]);
  });

  it.skipIf(!HAS_BUNDLE)("ships the engine's bytes once, as onig.wasm, not also as shiki's base64", () => {
    const folder = dirname(BUNDLE);
    const wasm = readFileSync(join(folder, 'onig.wasm'));
    // Bytes from the middle of the module, in base64 as shiki inlines them (aligned on a group of three bytes).
    const start = 3 * Math.floor(wasm.length / 6);
    const inlined = wasm.subarray(start, start + 96).toString('base64');
    const chunks = readdirSync(folder).filter((name) => name.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.filter((name) => readFileSync(join(folder, name), 'latin1').includes(inlined))).toEqual([]);
  });
});

describe('help lists every command with its options', () => {
  it('the main help names every command with its summary', async () => {
    const result = await run(BIN, ['--help']);
    for (const command of COMMANDS)
      expect(result.stdout).toMatch(
        new RegExp(`^  ${command.name} +${command.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
      );
  });

  it.each(COMMANDS.map((c) => [c.name]))(
    '`cctrail help %s` is its help, every option listed',
    async (name) => {
      const command = COMMANDS.find((c) => c.name === name);
      if (!command) throw new Error(name);
      const result = await run(BIN, ['help', name]);
      expect(result.stdout).toBe(commandHelp(command));
      for (const option of command.options) expect(result.stdout).toContain(`--${option.name}`);
    },
  );
});
