import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES } from './helpers.js';

// The report builder is another package; this test runs once it is built.
const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../apps/report/dist/index.js', import.meta.url)),
);
const HOSTILE = join(FIXTURES, 'hostile-content');

const work = await mkdtemp(join(tmpdir(), 'cctrail-report-'));
afterAll(() => rm(work, { recursive: true, force: true }));

async function allText(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(html|json|js)$/.test(entry.name)) {
      parts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
    }
  }
  return parts.join('\n');
}

describe.skipIf(!REPORT_BUILT || !existsSync(HOSTILE))('cctrail report', () => {
  it('builds a site with secrets redacted and home paths shortened, and prints index.html', async () => {
    const out = join(work, 'site');
    const run = await cctrail(['report', HOSTILE, '-o', out, '--short-home', '--title', 'Test']);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(join(out, 'index.html'));
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(run.stderr).toMatch(/\d+ secrets redacted, \d+ home paths shortened/);
    const text = await allText(out);
    for (const leak of [
      'sk-ant-api',
      'AKIAIOSFODNN7EXAMPLE',
      'ghp_',
      'github_pat_',
      'xoxb-',
      'sk_live_',
      'PRIVATE KEY-----\\nMII',
      ':hunter2@',
      'PASSWORD=hunter2',
    ]) {
      expect(text, leak).not.toContain(leak);
    }
    expect(text).not.toContain('/home/dev/');
    expect(text).toContain('[REDACTED:');
  });
});
