// `pnpm report` on a machine without transcripts builds the report of the bundled fixtures, which give errors
// and warnings on purpose: it says so, and which, instead of leaving a new user with "2 errors".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILT =
  existsSync(join(ROOT, 'packages/cli/dist/bin.js')) && existsSync(join(ROOT, 'apps/report/dist'));
const work = mkdtempSync(join(tmpdir(), 'cctrail-report-script-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 0);

test.skipIf(!BUILT)('says that the diagnostics of the bundled fixtures are expected, and which', () => {
  const run = spawnSync(process.execPath, ['scripts/report.mjs', '-o', join(work, 'site')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: join(work, 'home'),
      CLAUDE_CONFIG_DIR: '',
      CCTRAIL_CACHE_DIR: join(work, 'cache'),
      NO_COLOR: '1',
    },
  });
  expect(run.status).toBe(0);
  expect(run.stderr).toMatch(/diagnostics: \d+ errors?/);
  expect(run.stderr).toContain(
    'building a report from the bundled fixtures (test transcripts, hostile on purpose)',
  );
  expect(run.stderr).toContain('The diagnostics above are expected');
  expect(run.stderr).toMatch(/The errors come from fixtures\/damaged, broken on purpose \(.*torn-line.*\)/);
});
