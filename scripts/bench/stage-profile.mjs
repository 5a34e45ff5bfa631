// The budget of a cold `cctrail report`: where its CPU goes, stage by stage, as shares of the busy samples of a
// CPU profile of every thread (`node --cpu-prof`: the main thread, the export workers, the site's workers).
// Shares stay meaningful on a loaded machine, where wall times do not.
//
//   node scripts/bench/stage-profile.mjs [--profile calibrated|legacy] [--scale 1] [--checkout DIR] [--profiles DIR]
//
// Without --profiles it generates (or reuses, under .bench/) the archive of benchmark 4, runs a cold report of it
// with the checkout's cli (this one by default) under --cpu-prof, and prints the table; with --profiles it only
// reads the .cpuprofile files of a folder.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dataset } from './files.mjs';
import { mb, run, seconds } from './measure.mjs';

/**
 * Stages, tried on a sample's frames from the innermost outwards: the first rule a frame matches names the
 * sample's stage. A rule is a stage and a test on a frame's function name and file.
 */
const STAGES = [
  ['GC', (f) => f.name === '(garbage collector)'],
  ['highlighting (shiki)', (f) => /shiki|\/views\/(?:[a-z-]+\/)?highlight\.js/.test(f.url)],
  [
    'markdown (micromark, mdast, hast)',
    (f) =>
      /micromark|mdast-|hast-|unified|remark-|unist-|markdown-it|mdurl|uc\.micro|\/entities\/|punycode|\/views\/(?:[a-z-]+\/)?markdown[^/]*\.js/.test(
        f.url,
      ),
  ],
  ['Mermaid text', (f) => /\/views\/(?:[a-z-]+\/)?mermaid[^/]*\.js/.test(f.url)],
  ['redaction', (f) => /\/privacy\//.test(f.url)],
  [
    'search: tokens and pieces',
    // The codec and the pieces' reader also run while the pieces are merged (`searchFiles`, `planSearchFiles`).
    (f) =>
      /\/views\/(?:[a-z-]+\/)?search-(text|codec|terms|piece)\.js/.test(f.url) &&
      !/[sS]earchFiles@/.test(f.stack),
  ],
  [
    'search: merge and files',
    (f) => /\/build\/search-(files|pieces)\.js|\/views\/(?:[a-z-]+\/)?search(-codec|-piece)?\.js/.test(f.url),
  ],
  [
    'read (bytes, lines)',
    (f) => /\/read\/(read-lines|line-depth|lines?)[^/]*\.js|node-reader|discover/.test(f.url),
  ],
  ['parse (JSON lines, records)', (f) => /\/read\//.test(f.url)],
  ['normalize', (f) => /\/normalize\//.test(f.url)],
  ['DAG and analyses', (f) => /\/core\/dist\/(graph|analyses|session|usage|cost)/.test(f.url)],
  [
    'archive: serialize and hash',
    (f) => /\/core\/dist\/archive\/|atomic-write|\/cli\/dist\/archive\//.test(f.url),
  ],
  ['load archive (JSON.parse, schema)', (f) => /ajv|\/build\/load\.js/.test(f.url)],
  ['page shells (Astro)', (f) => /site-server\/[^/]+\/server\/|astro/.test(f.url)],
  [
    'view models of pages',
    (f) =>
      /\/build\/render-pages\.js|\/views\/(?:[a-z-]+\/)?(page-views|session-page-views|site-view|index-view|conversation-view|agents|agent-table)\.js/.test(
        f.url,
      ),
  ],
  [
    'transcript fragments (HTML)',
    (f) =>
      /\/views\/(?:[a-z-]+\/)?(render|transcript|tool-views|html|bidi|render-output|conversation-timeline|paginate|pager)[^/]*\.js/.test(
        f.url,
      ),
  ],
  ['session summary', (f) => /\/views\//.test(f.url)],
  [
    'assemble and write the site',
    (f) => /\/build\/(assemble|site-writer|output-record|files)\.js/.test(f.url),
  ],
  [
    'build cache (fragments, parts)',
    (f) => /\/build\/(fragments|packs|manifest|cache|session-pass|prepare)\.js/.test(f.url),
  ],
];

/** Where the file system time of a sample goes: the innermost frame of ours above the system call. */
const IO =
  /^(write|writeBuffer|writeFileUtf8|writeString|open|close|mkdir|rmdir|unlink|read|readFileUtf8|lstat|stat|readdir|rename|copyFile|cpSyncCopyDir|fsync|fstat|realpath|access)$/;
const IO_PLACES = [
  ['remove staging folders', /rimraf|rmSync|rm@/],
  ['write: archive (export)', /atomic-write|session-export|\/cli\/dist\/archive\//],
  ['write: build cache', /\/build\/(fragments|packs|manifest|search-pieces|cache|prepare|session-pass)\.js/],
  [
    'write: output folder (pages, assets)',
    /\/build\/(assemble|site-writer|render-pages|output-record|build)\.js/,
  ],
  ['read: archive and cache', /\/build\/load\.js|skeleton|\/read\//],
];

function frameOf(node) {
  const c = node.callFrame;
  return { name: c.functionName, url: c.url, stack: '' };
}

/** Busy microseconds by stage and by thread kind, from the profiles in `dir`. */
export function stageTimes(dir) {
  const stages = new Map();
  const threads = [];
  let busy = 0;
  let idle = 0;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()) {
    const p = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const memo = new Map();
    let own = 0;
    const roots = new Map();
    p.samples.forEach((id, i) => {
      const us = p.timeDeltas[i + 1] ?? 0;
      const leaf = nodes.get(id).callFrame.functionName;
      if (leaf === '(idle)' || leaf === '(program)') {
        idle += us;
        return;
      }
      let stage = memo.get(id);
      if (stage === undefined) {
        stage = classify(id, nodes, parent, roots);
        memo.set(id, stage);
      }
      stages.set(stage, (stages.get(stage) ?? 0) + us);
      own += us;
    });
    busy += own;
    // A profile's name holds its thread's id: 0 is the main thread.
    const main = /\.\d+\.0\.\d+\.cpuprofile$/.test(file);
    const role = main ? 'main thread' : ([...roots].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'worker');
    threads.push({ file, busy: own, role });
  }
  return { stages, busy, idle, threads };
}

function classify(id, nodes, parent, roots) {
  const frames = [];
  for (let at = id; at !== undefined; at = parent.get(at)) frames.push(frameOf(nodes.get(at)));
  const path = frames.map((f) => `${f.name}@${f.url}`).join(' < ');
  const role = /prepareSession|exportSession/.test(path)
    ? 'export worker'
    : /processSession/.test(path)
      ? 'site worker'
      : 'worker';
  roots.set(role, (roots.get(role) ?? 0) + 1);
  // A system call is a native frame (no script) or node's own fs code; a function of ours or of a library may
  // have the same name (markdown-it's renderer has a \`write\`).
  const leaf = frames[0];
  if (
    (IO.test(leaf.name) && (leaf.url === '' || leaf.url.startsWith('node:'))) ||
    leaf.url.startsWith('node:fs')
  ) {
    const place = IO_PLACES.find(([, re]) => re.test(path));
    if (place) return place[0];
  }
  for (const f of frames) {
    f.stack = path;
    if (f.name === 'parse' && f.url === '' && frames.some((g) => /\/build\/load\.js/.test(g.url)))
      return 'load archive (JSON.parse, schema)';
    const rule = STAGES.find(([, test]) => test(f));
    if (rule) return rule[0];
  }
  if (/compileSourceTextModule|node:internal\/modules|loadESM|importModuleDynamically/.test(path))
    return 'loading modules';
  return `other (${frames[0].name || '(anonymous)'})`;
}

/** The table of `stageTimes`, biggest first; small "other" lines folded into one. */
export function stageTable({ stages, busy, idle, threads }) {
  const rows = [];
  let others = 0;
  for (const [stage, us] of [...stages].sort((a, b) => b[1] - a[1])) {
    if (stage.startsWith('other') && us / busy < 0.01) others += us;
    else rows.push(`| ${stage} | ${(us / 1e6).toFixed(2)} s | ${((100 * us) / busy).toFixed(1)} % |`);
  }
  if (others > 0)
    rows.push(
      `| other (each < 1 %) | ${(others / 1e6).toFixed(2)} s | ${((100 * others) / busy).toFixed(1)} % |`,
    );
  return [
    '| stage | busy samples | share of busy CPU |',
    '| --- | --- | --- |',
    ...rows,
    `| **all stages** (${threads.length} threads; idle ${(idle / 1e6).toFixed(1)} s not counted) | ${(busy / 1e6).toFixed(2)} s | 100 % |`,
  ].join('\n');
}

async function main() {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string', default: 'calibrated' },
      scale: { type: 'string', default: '1' },
      checkout: { type: 'string' },
      profiles: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  let dir = values.profiles;
  if (!dir) {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
    const checkout = resolve(values.checkout ?? root);
    const cli = join(checkout, 'packages/cli/dist/bin.js');
    if (!existsSync(cli)) throw new Error(`${checkout}: build it first (pnpm build)`);
    const scale = Number(values.scale);
    const archive = await dataset(
      join(root, '.bench'),
      `archive-550-${values.profile}-x${scale}`,
      {
        profile: values.profile,
        sessions: Math.max(5, Math.round(550 * scale)),
        totalMb: 700 * scale,
        seed: 13,
      },
      console.error,
    );
    const work = join(tmpdir(), `cctrail-stage-profile-${process.pid}`);
    dir = join(work, 'profiles');
    mkdirSync(dir, { recursive: true });
    const r = await run(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, cli, 'report', archive, '-o', join(work, 'site'), '--verbose'],
      { env: { CCTRAIL_CACHE_DIR: join(work, 'cache') } },
    );
    if (r.code !== 0) throw new Error(`report failed: ${r.stderr.slice(-800)}`);
    console.log(
      `cold \`cctrail report\` (${values.profile}, scale ${scale}) under --cpu-prof: ${seconds(r.ms)} wall, peak ${mb(r.peakRss)}`,
    );
    for (const line of r.stderr.split('\n').filter((l) => l.startsWith('report:'))) console.log(`  ${line}`);
    rmSync(join(work, 'site'), { recursive: true, force: true });
    rmSync(join(work, 'cache'), { recursive: true, force: true });
    if (!values.keep) process.on('exit', () => rmSync(work, { recursive: true, force: true }));
    else console.log(`profiles kept in ${dir}`);
  }
  const times = stageTimes(dir);
  console.log(stageTable(times));
  for (const t of times.threads) console.log(`  ${t.role}: ${(t.busy / 1e6).toFixed(2)} s busy (${t.file})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
