import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { buildReport, OutputFolderError } from '../src/index.js';
import type { ArchiveIndex } from '../src/views/model.js';
import { linearSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

const tmp = tempFolder('cctrail-output-folder-');
export const RECORD = '.cctrail-report.json';
let cases = 0;

/** A fresh case: an archive of one project with these sessions, and its output and cache folders. */
export function fixture(sessions = ['alpha', 'beta']) {
  const root = join(tmp, `case-${cases++}`);
  const dataDir = join(root, 'data');
  writeArchive(dataDir, [
    { id: 'shop', cwd: '/home/dev/shop', sessions: sessions.map((id) => linearSession(id, 6)) },
  ]);
  return { root, dataDir, outDir: join(root, 'out'), cacheDir: join(root, 'cache') };
}

type Case = ReturnType<typeof fixture>;

export function build(c: Case, more: { force?: boolean; log?: (m: string) => void } = {}) {
  return buildReport({ dataDir: c.dataDir, outDir: c.outDir, cacheDir: c.cacheDir, title: 't', ...more });
}

export function put(root: string, rel: string, data: string | Uint8Array) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), data);
}

/** Every entry under a folder, links not followed: a file's SHA-256, a link's target, `folder`. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    const path = rel === '' ? dir : join(dir, rel);
    const entry = lstatSync(path);
    if (entry.isSymbolicLink()) out[rel] = `-> ${readlinkSync(path)}`;
    else if (entry.isDirectory()) {
      if (rel !== '') out[`${rel}/`] = 'folder';
      for (const name of readdirSync(path)) stack.push(rel === '' ? name : `${rel}/${name}`);
    } else out[rel] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

/** The entries of `all` named in `keys`. */
export function pick(all: Record<string, string>, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.map((k) => [k, all[k] ?? 'gone']));
}

/** The files of the output folder that are not in `foreign` and not the record, sorted. */
export function siteFiles(outDir: string, foreign: Record<string, string> = {}): string[] {
  return Object.entries(tree(outDir))
    .filter(([rel, v]) => v !== 'folder' && !v.startsWith('->') && !(rel in foreign) && rel !== RECORD)
    .map(([rel]) => rel)
    .sort();
}

export function recordOf(outDir: string): { generator: string; schemaVersion: number; files: string[] } {
  return JSON.parse(readFileSync(join(outDir, RECORD), 'utf8'));
}

/** Leaves `id` out of the archive's index (its file stays; the others keep their identity). */
export function dropSession(c: Case, id: string) {
  const file = join(c.dataDir, 'index.json');
  const index = JSON.parse(readFileSync(file, 'utf8')) as ArchiveIndex;
  for (const p of index.projects) p.sessions = p.sessions.filter((s) => s.id !== id);
  writeFileSync(file, JSON.stringify(index));
}

/** The build's refusal (or a failure of the test when it builds). */
export async function refusal(c: Case): Promise<OutputFolderError> {
  const error = await build(c).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutputFolderError);
  return error as OutputFolderError;
}
