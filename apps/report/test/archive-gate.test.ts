import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../src/build/build.js';
import { SITE_ROOT } from '../src/build/site-server.js';
import { demoSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * `buildReport({ archive })`: the caller is still writing the archive. The site's bundle is made meanwhile when
 * it is missing, and the archive is read only once the promise settles.
 */

const tmp = tempFolder('cctrail-report-gate-');

/** Build folders (`.build-*`) left beside the site. */
function leftovers(): string[] {
  return readdirSync(join(SITE_ROOT, '..')).filter((name) => name.startsWith(`.build-${process.pid}-`));
}

describe('buildReport with an archive still being written', () => {
  it('reads the archive once the promise settles', async () => {
    const dataDir = join(tmp, 'late');
    const outDir = join(tmp, 'late-site');
    let ready!: () => void;
    const written = new Promise<void>((resolve) => {
      ready = resolve;
    });
    // The gate opens when the build waits for the archive: the archive is written only then.
    let waiting!: () => void;
    const awaited = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const archive: PromiseLike<void> = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable tells when the build awaits the archive
      then: (onWritten, onFailed) => {
        waiting();
        return written.then(onWritten, onFailed);
      },
    };
    const building = buildReport({ dataDir, outDir, cacheDir: false, archive });
    await awaited;
    expect(existsSync(dataDir)).toBe(false);
    const demo = demoSession();
    writeArchive(dataDir, [{ id: 'demo', cwd: '/home/dev/shop', sessions: [demo] }]);
    ready();
    const built = await building;
    expect(built.pages).toBeGreaterThan(1);
    const index = readFileSync(built.indexHtml, 'utf8');
    expect(index).not.toContain('index.json could not be read');
    expect(index).toContain('Fix the checkout bug &lt;b&gt;now&lt;/b&gt;');
    expect(readdirSync(join(outDir, 's', 'demo'))).toContain('demo-session');
  });

  it('stops with the archive’s error, quietly, and leaves the process and the disk as they were', async () => {
    const cwd = process.cwd();
    const env = { ...process.env };
    const outDir = join(tmp, 'never-site');
    // The export fails once the build waits for it.
    const archive: PromiseLike<void> = {
      // biome-ignore lint/suspicious/noThenProperty: the export fails when the build awaits it
      then: (onWritten, onFailed) => Promise.reject(new Error('the export failed')).then(onWritten, onFailed),
    };
    const printed: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      await expect(
        buildReport({ dataDir: join(tmp, 'never'), outDir, cacheDir: join(tmp, 'never-cache'), archive }),
      ).rejects.toThrow('the export failed');
    } finally {
      process.stderr.write = write;
    }
    expect(printed.join('')).not.toMatch(/error/i);
    expect(existsSync(outDir)).toBe(false);
    expect(existsSync(join(tmp, 'never-cache', 'stage'))).toBe(false);
    expect(process.cwd()).toBe(cwd);
    expect(process.env).toEqual(env);
    expect(leftovers()).toEqual([]);
  });
});
