import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES } from './helpers.js';

const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../apps/report/dist/index.js', import.meta.url)),
);
const LINEAR = join(FIXTURES, 'linear');

const work = await mkdtemp(join(tmpdir(), 'cctrail-report-unread-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

describe.skipIf(!REPORT_BUILT || !existsSync(LINEAR))(
  'cctrail report: sessions it could not read (#31)',
  () => {
    it('lists each on the terminal with its file and the reason, not only on its pages', async () => {
      const cache = join(work, 'cache');
      const out = join(work, 'site');
      const env = { CCTRAIL_CACHE_DIR: cache };
      const first = await cctrail(['report', LINEAR, '-o', out], { env });
      expect(first.code).toBe(0);
      expect(first.stderr).not.toContain('without its transcript');
      // The report's archive keeps a session the export need not write again: damaged there, the builder cannot
      // read it (as it cannot read a session of more JSON than a string holds).
      const [report] = await readdir(join(cache, 'reports'));
      const archive = join(cache, 'reports', report!, 'archive');
      const files = (await readdir(archive, { recursive: true })).filter((f) => f.endsWith('.json.br'));
      expect(files).toHaveLength(1);
      await writeFile(join(archive, files[0]!), 'not brotli');
      const second = await cctrail(['report', LINEAR, '-o', out], { env });
      expect(second.stderr).not.toContain('internal error');
      expect(second.code).toBe(0);
      const lines = second.stderr.split('\n');
      const at = lines.indexOf('1 session shown without its transcript:');
      expect(at).toBeGreaterThanOrEqual(0);
      expect(lines[at + 1]).toMatch(/^ {2}[^:]*\/[^/:]+\.jsonl: cannot read .*/);
    }, 180_000);
  },
);
