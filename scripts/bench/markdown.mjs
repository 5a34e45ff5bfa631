// Markdown rendering (#26): `renderMarkdown` over every message text of a folder of transcripts (the text and
// thinking blocks of user and assistant records: what the report renders as markdown, and a little more), this
// checkout's build against another built checkout's (`--base`, /work/base-main by default), run alternately.
// Each side of a run is a process of its own: two builds loaded in one process were not measured alike (the one
// loaded second took 1.7× the CPU of the first, whichever it was). In its process, a warm-up pass (each build's
// shiki compiles its grammars then) is not counted, then each of `--passes` passes imports a fresh instance of
// the module (an empty cache, as a worker has) and renders every text; a run's figure is the median of its
// passes' CPU time (`process.cpuUsage`: the rendering is synchronous).
// Outputs are compared too (a digest of each): the first texts the two render differently are printed, and the
// run fails. Needs both checkouts built (`pnpm --filter @cctrail/report build`, or `tsc -p tsconfig.build.json`).
//
// With --reasons, only this checkout's fast path is tried: the share of characters it takes and, of the rest,
// the share with each feature that may keep a text from it.
//
//   node scripts/bench/markdown.mjs DIR... [--base /work/base-main] [--runs 5] [--passes 3] [--repeat 1]
//   node scripts/bench/markdown.mjs DIR... --reasons

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './measure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The text and thinking blocks of the user and assistant records of the transcripts under a folder. */
export function messageTexts(dir) {
  const out = [];
  const take = (record) => {
    if (record?.type !== 'user' && record?.type !== 'assistant') return;
    const content = record.message?.content;
    if (typeof content === 'string') out.push(content);
    else if (Array.isArray(content))
      for (const block of content) {
        if (block?.type === 'text' && typeof block.text === 'string') out.push(block.text);
        else if (block?.type === 'thinking' && typeof block.thinking === 'string') out.push(block.thinking);
      }
  };
  const visit = (path) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) visit(child);
      else if (name.endsWith('.jsonl'))
        for (const line of readFileSync(child, 'utf8').split('\n')) {
          try {
            take(JSON.parse(line));
          } catch {}
        }
    }
  };
  visit(dir);
  return out;
}

function cpuMs(f) {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function load(checkout, pass) {
  // Since the views were put in folders, markdown lives in `views/markdown/` (a build may keep stale files above it).
  const nested = join(checkout, 'apps/report/dist/views/markdown');
  const dist = existsSync(join(nested, 'markdown.js')) ? nested : join(checkout, 'apps/report/dist/views');
  const highlight = await import(pathToFileURL(join(dist, 'highlight.js')).href);
  await highlight.loadHighlighter();
  const markdown = await import(`${pathToFileURL(join(dist, 'markdown.js')).href}?pass=${pass}`);
  return markdown.renderMarkdown;
}

/**
 * One side of a run, in a process of its own: a warm-up pass (shiki compiles its grammars), then `passes` passes,
 * each with a fresh module instance; prints the CPU time of each pass and a digest of every output.
 */
async function child(checkout, dirs, passes, repeat) {
  const texts = dirs.flatMap((dir) => messageTexts(resolve(dir)));
  const times = [];
  let digests = [];
  for (let pass = 0; pass <= passes; pass++) {
    const render = await load(checkout, pass);
    const outs = [];
    const ms = cpuMs(() => {
      for (let r = 0; r < repeat; r++) for (const text of texts) outs.push(render(text).value);
    });
    if (pass > 0) times.push(ms);
    digests = outs.map((out) => createHash('sha1').update(out).digest('hex').slice(0, 16));
  }
  process.stdout.write(JSON.stringify({ times, digests }));
}

/** Features of markdown that the fast path may leave to the full pipeline, for `--reasons`. */
const FEATURES = [
  [
    'a list item followed by a lazy line, heading or fence',
    /^(?:[-*+]|\d{1,9}[.)]) .*\n(?!(?:[-*+]|\d{1,9}[.)]) )[^ \t\n]/m,
  ],
  ['`**`', /\*\*/],
  ['a code span over lines', /(^|[^`])`[^`\n]+\n[^`\n]*`(?!`)/],
  ['nested or indented lines', /^[ \t]+\S/m],
  ['`<` that may open a tag', /<[A-Za-z/!?]/],
  ['`[x](url)`', /\]\(/],
  ['`![`', /!\[/],
  ['`]:` or `[^`', /\]:|\[\^/],
  ['other `[` `]`', /[[\]]/],
  ['`http(s)://`', /https?:\/\//i],
  ['`www.`', /www\./i],
  ['`@`', /@/],
  ['an entity', /&[A-Za-z#]/],
  ['a table `|`', /\|/],
  ['`~`', /~/],
  ['a quote', /^ {0,3}>/m],
  ['a rule', /^ {0,3}([-*_])[ \t]*(\1[ \t]*){2,}$/m],
  ['a setext underline', /^ {0,3}(=+|-+)[ \t]*$/m],
  ['one `*`', /(^|[^*])\*(?!\*)/],
  ['`_` emphasis', /(^|[^A-Za-z0-9_])_|_($|[^A-Za-z0-9_])/],
];

/**
 * Which share of the characters of `texts` the fast path of `checkout` takes, whole or in pieces, and, for the
 * pieces it leaves to the full pipeline, the share of characters with each feature (and with it alone).
 */
async function reasons(checkout, texts) {
  const nested = join(checkout, 'apps/report/dist/views/markdown');
  const { renderWithMarkdownIt } = await import(pathToFileURL(join(nested, 'markdown-it.js')).href);
  const { markdownPieces } = await import(pathToFileURL(join(nested, 'markdown-chunks.js')).href);
  const total = texts.reduce((n, t) => n + t.length, 0);
  const share = (n) => `${((100 * n) / total).toFixed(1)} %`;
  const sums = { whole: 0, pieces: 0, slow: 0, uncut: 0 };
  const any = new Map();
  const only = new Map();
  const add = (map, key, n) => map.set(key, (map.get(key) ?? 0) + n);
  for (const text of texts) {
    if (text.length > 100_000) continue;
    if (renderWithMarkdownIt(text) !== undefined) {
      sums.whole += text.length;
      continue;
    }
    const pieces = markdownPieces(text);
    if (pieces.length === 1) sums.uncut += text.length;
    for (const piece of pieces) {
      if (pieces.length > 1 && renderWithMarkdownIt(piece) !== undefined) {
        sums.pieces += piece.length;
        continue;
      }
      sums.slow += piece.length;
      const found = FEATURES.filter(([, re]) => re.test(piece)).map(([name]) => name);
      for (const name of found.length > 0 ? found : ['none of these']) add(any, name, piece.length);
      if (found.length <= 1) add(only, found[0] ?? 'none of these', piece.length);
    }
  }
  console.log(
    `fast path: whole texts ${share(sums.whole)}, pieces ${share(sums.pieces)}; full pipeline ${share(sums.slow)} (in texts that cannot be cut: ${share(sums.uncut)})`,
  );
  console.log('| slow pieces with | characters | with it alone |\n| --- | --- | --- |');
  for (const [name, n] of [...any].sort((a, b) => b[1] - a[1]))
    console.log(`| ${name} | ${share(n)} | ${share(only.get(name) ?? 0)} |`);
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      base: { type: 'string', default: '/work/base-main' },
      runs: { type: 'string', default: '5' },
      passes: { type: 'string', default: '3' },
      repeat: { type: 'string', default: '1' },
      child: { type: 'string' },
      reasons: { type: 'boolean', default: false },
    },
  });
  const passes = Number(values.passes);
  const repeat = Number(values.repeat);
  if (values.child) return child(values.child, positionals, passes, repeat);
  const texts = positionals.flatMap((dir) => messageTexts(resolve(dir)));
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const unique = new Set(texts).size;
  if (values.reasons) return reasons(root, texts);
  console.log(
    `${texts.length} texts (${unique} distinct), ${(chars / 1e6).toFixed(1)} M characters, ×${repeat}, ${passes} passes a run`,
  );
  const side = (checkout) => {
    const args = [fileURLToPath(import.meta.url), '--child', checkout, '--passes', `${passes}`];
    const out = execFileSync(process.execPath, [...args, '--repeat', `${repeat}`, ...positionals], {
      maxBuffer: 1 << 30,
    });
    return JSON.parse(out.toString());
  };
  const times = { base: [], this: [] };
  for (let run = 0; run < Number(values.runs); run++) {
    const order = run % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
    const results = {};
    for (const name of order) results[name] = side(name === 'base' ? resolve(values.base) : root);
    let diffs = 0;
    results.base.digests.forEach((digest, i) => {
      if (digest !== results.this.digests[i] && diffs++ < 5)
        console.log(`differs: ${JSON.stringify(texts[i % texts.length]).slice(0, 300)}`);
    });
    if (diffs > 0) {
      console.log(`${diffs} texts rendered differently`);
      process.exitCode = 1;
    }
    times.base.push(median(results.base.times));
    times.this.push(median(results.this.times));
    console.log(
      `run ${run + 1} (median of its passes): base ${times.base.at(-1).toFixed(0)} ms, this ${times.this.at(-1).toFixed(0)} ms`,
    );
  }
  const fmt = (xs) => `best ${Math.min(...xs).toFixed(0)} ms, median ${median(xs).toFixed(0)} ms`;
  const ratios = times.this.map((t, i) => t / times.base[i]);
  console.log(`base: ${fmt(times.base)}\nthis: ${fmt(times.this)}`);
  console.log(
    `this / base: best ${(Math.min(...times.this) / Math.min(...times.base)).toFixed(3)}, median of pairs ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
