import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES } from './helpers.js';

/**
 * cctrail deletes only files it wrote (issue #30): every command that writes a folder is tried against folders
 * full of someone else's files, its own input, the current folder, a parent of its input, a git work tree and
 * symbolic links; every foreign file must be byte-identical afterwards.
 */

const REPORT_BUILT = existsSync(new URL('../../../apps/report/dist/index.js', import.meta.url));
const work = await mkdtemp(join(tmpdir(), 'cctrail-output-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** Every file under a folder with its bytes (links as links), by relative path. */
async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile()) out.set(path.slice(dir.length + 1), await readFile(path, 'latin1'));
    else if (entry.isSymbolicLink()) out.set(path.slice(dir.length + 1), '<link>');
  }
  return out;
}

/** Expects every file of `before` to be in `dir` with the same bytes. */
async function expectKept(dir: string, before: Map<string, string>) {
  const after = await files(dir);
  for (const [path, bytes] of before) expect(after.get(path) === bytes, path).toBe(true);
}

async function projects(name: string): Promise<string> {
  const dir = join(work, name);
  await cp(join(FIXTURES, 'multi-project'), dir, { recursive: true });
  return dir;
}

/** A GitHub Pages `docs/` folder of a repository: notes, a CNAME, images. */
async function docsFolder(name: string): Promise<string> {
  const dir = join(work, name, 'docs');
  await mkdir(join(dir, 'img'), { recursive: true });
  await writeFile(join(dir, 'notes.md'), '# notes\n');
  await writeFile(join(dir, 'CNAME'), 'example.org\n');
  await writeFile(join(dir, 'img', 'a.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  return dir;
}

const commands = [['export', []], ...(REPORT_BUILT ? [['report', []] as const] : [])] as const;

describe.each(commands)('cctrail %s never writes over what it did not write', (command) => {
  it('refuses its input, the current folder holding it, a parent of it, and the cache', async () => {
    const input = await projects(`${command}-input`);
    const before = await files(work);
    for (const [output, cwd] of [
      [input, work],
      ['.', input],
      ['.', work],
      [work, work],
      [join(input, '-home-dev-notes'), work],
    ] as const) {
      const run = await cctrail([command, input, '-o', output], { cwd });
      expect(run.code, `${output} from ${cwd}`).toBe(2);
      expect(run.stderr).toMatch(/the output .* (is|is a folder that holds|is inside) the input/);
    }
    const cache = join(work, `${command}-cache`);
    const refused = await cctrail([command, input, '-o', join(cache, 'out')], {
      env: { CCTRAIL_CACHE_DIR: cache },
    });
    expect(refused.stderr).toMatch(/inside cctrail's cache folder/);
    await expectKept(work, before);
  });

  it('refuses a docs/ folder and a git work tree, and with --force leaves every file in them', async () => {
    const input = await projects(`${command}-in2`);
    const docs = await docsFolder(`${command}-repo`);
    const repo = join(work, `${command}-git`);
    await mkdir(repo, { recursive: true });
    await writeFile(join(repo, 'README.md'), 'mine\n');
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'add', '.']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x']);
    for (const dir of [docs, repo]) {
      const before = await files(dir);
      const run = await cctrail([command, input, '-o', dir]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/is not empty and is not a cctrail (archive|report): it holds /);
      expect(await files(dir)).toEqual(before);
      const forced = await cctrail([command, input, '-o', dir, '--force']);
      expect(forced.code, forced.stderr).toBe(0);
      await expectKept(dir, before);
      // A second run takes the folder as its own, and still leaves the rest.
      expect((await cctrail([command, input, '-o', dir, '--force'])).code).toBe(0);
      await expectKept(dir, before);
    }
    expect(execFileSync('git', ['-C', repo, 'status', '--porcelain']).toString()).not.toMatch(/^ ?[MD] /m);
  });

  it('writes through no link out of its folder', async () => {
    const input = await projects(`${command}-in3`);
    const outside = join(work, `${command}-outside`);
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'keep.txt'), 'keep\n');
    const out = join(work, `${command}-linked`);
    await mkdir(out, { recursive: true });
    await symlink(outside, join(out, command === 'export' ? 'sessions' : '_cctrail'));
    const before = await files(outside);
    await cctrail([command, input, '-o', out, '--force']);
    // The report replaces a link where its site needs a folder; an archive may have a folder of it on another
    // disk, linked: either way nothing there is changed or removed.
    if (command === 'report') expect(await files(outside)).toEqual(before);
    else await expectKept(outside, before);
    // The output folder given as a link to the input is its input.
    const alias = join(work, `${command}-alias`);
    await symlink(input, alias);
    const run = await cctrail([command, input, '-o', alias]);
    expect(run.code).toBe(2);
  });
});
