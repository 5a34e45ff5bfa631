import { execFile } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, type Run, schemaErrors } from '../helpers.js';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
// Permissions do not stop root: as root, the runs are made as `nobody` (setpriv, util-linux).
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];
const CAN_DENY = !AS_ROOT || existsSync('/usr/bin/setpriv');

function run(args: readonly string[]): Promise<Run> {
  const [file, argv] = AS_ROOT
    ? ['setpriv', [...NOBODY, process.execPath, BIN, ...args]]
    : [process.execPath, [BIN, ...args]];
  return new Promise((resolve) => {
    execFile(
      file,
      argv,
      { env: { ...process.env, NO_COLOR: '1', CCTRAIL_DEBUG: '', CCTRAIL_CACHE_DIR: join(work, 'cache') } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

const work = mkdtempSync(join(tmpdir(), 'cctrail-denied-'));
chmodSync(work, 0o777);
afterAll(() => {
  chmodSync(join(work, 'projects', '-home-dev-locked'), 0o755);
  chmodSync(subagents, 0o755);
  rmSync(work, { recursive: true, force: true });
}, 0);

// One readable project, one that cannot be listed, a session whose subagents/ folder cannot be listed and a
// transcript that cannot be read.
const projects = join(work, 'projects');
mkdirSync(projects);
cpSync(join(FIXTURES, 'linear', '-home-dev-linear'), join(projects, '-home-dev-linear'), { recursive: true });
cpSync(join(FIXTURES, 'conversation-one-file', '-home-dev-one-file'), join(projects, '-home-dev-one-file'), {
  recursive: true,
});
mkdirSync(join(projects, '-home-dev-locked'));
cpSync(join(FIXTURES, 'linear', '-home-dev-linear'), join(projects, '-home-dev-locked'), { recursive: true });
const session = readdirSync(join(projects, '-home-dev-one-file')).find((name) => !name.endsWith('.jsonl'))!;
const subagents = join(projects, '-home-dev-one-file', session, 'subagents');
const [linearFile] = readdirSync(join(projects, '-home-dev-linear')).filter((name) =>
  name.endsWith('.jsonl'),
);
cpSync(join(projects, '-home-dev-linear', linearFile!), join(projects, '-home-dev-linear', 'denied.jsonl'));
chmodSync(join(projects, '-home-dev-linear', 'denied.jsonl'), 0o000);
chmodSync(join(projects, '-home-dev-locked'), 0o000);
chmodSync(subagents, 0o000);
mkdirSync(join(work, 'archive'));
chmodSync(join(work, 'archive'), 0o777);

type Listed = { code: string; file: string | null; line: number | null; message: string };

describe.skipIf(!CAN_DENY)(
  'input paths without permission (#19): diagnostics with the reason, the run goes on',
  () => {
    it('export: the folders are skipped-path diagnostics of index.json, the file an unreadable-file one', async () => {
      const out = join(work, 'archive', 'out');
      const result = await run(['export', projects, '-o', out]);
      expect(result.stderr).not.toMatch(/internal error/);
      expect(result.code).toBe(0);
      const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
      expect(schemaErrors('index', index)).toEqual([]);
      const skipped = (index.diagnostics as Listed[]).map((d) => [d.code, d.file, d.message]);
      expect(skipped).toEqual([
        ['skipped-path', '-home-dev-locked', 'Not read: permission denied.'],
        ['skipped-path', `-home-dev-one-file/${session}/subagents`, 'Not read: permission denied.'],
      ]);
      const denied = JSON.parse(
        readFileSync(join(out, 'sessions', '-home-dev-linear', 'denied.json'), 'utf8'),
      );
      expect(schemaErrors('session', denied)).toEqual([]);
      const unreadable = (denied.diagnostics as Listed[]).filter((d) => d.code === 'unreadable-file');
      expect(unreadable.map((d) => [d.file, d.line])).toEqual([['-home-dev-linear/denied.jsonl', null]]);
      expect(unreadable[0]!.message).toContain('permission denied');
    });

    it('stats --json: the same diagnostics, the readable sessions counted', async () => {
      const result = await run(['stats', projects, '--json', '--no-cache']);
      expect(result.code).toBe(0);
      const stats = JSON.parse(result.stdout);
      expect(schemaErrors('stats', stats)).toEqual([]);
      expect((stats.diagnostics as Listed[]).map((d) => d.file)).toEqual([
        '-home-dev-locked',
        `-home-dev-one-file/${session}/subagents`,
      ]);
      expect(stats.totals.sessions).toBeGreaterThanOrEqual(2);
    });
  },
);
