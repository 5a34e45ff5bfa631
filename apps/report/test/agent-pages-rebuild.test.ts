import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../src/build/build.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * A rebuild keeps the agents' pages whose keys did not change (`build/agent-page-keys.ts`): after a session without
 * agent runs changed, they are not rendered again, and the site is still the one a build from nothing writes.
 */

const tmp = tempFolder('cctrail-agent-pages-');
const dataDir = join(tmp, 'data');
const site = join(tmp, 'site');

/** Every file of a site but its build cache and record, by path. */
function siteFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const stack = [dir];
  while (stack.length > 0) {
    const at = stack.pop() as string;
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.name === '.cctrail-cache' || entry.name === '.cctrail-report.json') continue;
      if (entry.isDirectory()) stack.push(path);
      else files.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Builds the site again, and says which kinds of pages it rendered (`--verbose`'s line). */
async function rebuild(): Promise<string> {
  const messages: string[] = [];
  await buildReport({ dataDir, outDir: site, log: (m) => messages.push(m) });
  return messages.find((m) => / pages rendered and written /.test(m)) ?? '';
}

/** What a build without a cache writes for the archive as it is now. */
async function fromNothing(name: string): Promise<Map<string, string>> {
  const out = join(tmp, name);
  await buildReport({ dataDir, outDir: out, cacheDir: false });
  return siteFiles(out);
}

describe("the agents' pages of a rebuild", () => {
  it('are kept when no session with runs changed, and are what a build from nothing writes', async () => {
    writeArchive(dataDir, [
      { id: 'shop', cwd: '/home/dev/shop', sessions: [demoSession(), linearSession('alpha', 40)] },
    ]);
    expect(await rebuild()).toMatch(/\bagent 1 in /);
    expect(readdirSync(join(site, 'agents'))).toContain('test-runner');
    // alpha has no agent runs: the agents' pages are those of the last build.
    writeFileSync(join(dataDir, 'shop', 'alpha.json'), JSON.stringify(linearSession('alpha', 60)));
    const rendered = await rebuild();
    expect(rendered).toMatch(/\bsession 1 in /);
    expect(rendered).not.toMatch(/\bagents? \d+ in /);
    expect(siteFiles(site)).toEqual(await fromNothing('cold-1'));
  });

  it('are kept when a session with runs changed, but not its runs', async () => {
    const demo = demoSession();
    demo.entries.push({ ...demo.entries.at(-1)!, uuid: 'late', parentUuid: demo.entries.at(-1)!.uuid });
    writeFileSync(join(dataDir, 'shop', `${demo.id}.json`), JSON.stringify(demo));
    const rendered = await rebuild();
    expect(rendered).toMatch(/\bsidechain 1 in /);
    expect(rendered).not.toMatch(/\bagents? \d+ in /);
    expect(siteFiles(site)).toEqual(await fromNothing('cold-0'));
  });

  it('are rendered again when a session with runs changed', async () => {
    const demo = demoSession();
    const [run] = demo.sidechains;
    if (run) run.description = 'Run the tests again';
    writeFileSync(join(dataDir, 'shop', `${demo.id}.json`), JSON.stringify(demo));
    expect(await rebuild()).toMatch(/\bagents 1 in .*\bagent 1 in /);
    const files = siteFiles(site);
    expect([...files.values()].some((text) => text.includes('Run the tests again'))).toBe(true);
    expect(files).toEqual(await fromNothing('cold-2'));
  });

  it('are rendered again when the output folder lost them', async () => {
    rmSync(join(site, 'agents', 'index.html'));
    expect(await rebuild()).toMatch(/\bagents 1 in /);
    expect(siteFiles(site)).toEqual(await fromNothing('cold-3'));
  });
});
