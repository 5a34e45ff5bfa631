// The builds a run measures: this checkout ("after") and, with BENCH_BASELINE=/path/to/checkout[,/another], other
// built checkouts ("before", or "before 1", "before 2", …), each measured back to back with the others, run after run.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The CLI of a checkout as its package publishes it (`bin.cctrail` of `packages/cli/package.json`: the bundle since
 * #17, `dist/bin.js` before), so that each build is measured as its users run it; `BENCH_CLI=dist` takes
 * `dist/bin.js` of every build instead.
 */
function cliOf(root) {
  const cli = join(root, 'packages/cli');
  const manifest = join(cli, 'package.json');
  const published = existsSync(manifest)
    ? JSON.parse(readFileSync(manifest, 'utf8')).bin?.cctrail
    : undefined;
  return process.env.BENCH_CLI === 'dist' || typeof published !== 'string'
    ? join(cli, 'dist/bin.js')
    : join(cli, published);
}

/** A build: its name, root, CLI entry and commit. */
function build(name, root) {
  const cli = cliOf(root);
  if (!existsSync(cli)) throw new Error(`${root}: build it first (pnpm build), no ${cli}`);
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    });
    if (dirty.trim()) commit += ' + changes';
  } catch {}
  return { name, root, cli, commit };
}

/**
 * The builds to measure: `after` (this checkout) first, then the baselines when given (`BENCH_BASELINE`, folders
 * separated by commas): `before` for one, `before 1`, `before 2`, … for several, all measured in the same run.
 */
export function builds(root, baseline) {
  const list = [build('after', root)];
  const roots = (baseline ?? '').split(',').filter((r) => r.trim() !== '');
  for (const [i, r] of roots.entries())
    list.push(build(roots.length === 1 ? 'before' : `before ${i + 1}`, resolve(r.trim())));
  return list;
}

/** The builds in the order of run `i`: alternating, so that neither always runs first on a warmer machine. */
export function inTurn(list, i) {
  return i % 2 ? [...list].reverse() : list;
}

function entryOf(spec) {
  if (typeof spec === 'string') return spec;
  return spec?.import ?? spec?.default ?? null;
}

/**
 * Core's `buildSession` and `fileSource` of a build, wherever the build exports them: the main entry, or the
 * `@cctrail/core/node` subpath that takes file reading out of it.
 */
export async function loadCore({ root }) {
  const dir = join(root, 'packages/core');
  const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const load = async (key) => {
    const entry = entryOf(exports?.[key]);
    return entry ? import(pathToFileURL(join(dir, entry)).href) : {};
  };
  const main = await load('.');
  const node = await load('./node');
  const buildSession = main.buildSession ?? node.buildSession;
  const fileSource = node.fileSource ?? main.fileSource;
  if (!buildSession || !fileSource) throw new Error(`${root}: core exports no buildSession or fileSource`);
  return { buildSession, fileSource };
}
