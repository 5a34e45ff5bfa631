// Markdown rendering (#26): `renderMarkdown` over every message text of a folder of transcripts (the text and
// thinking blocks of user and assistant records: what the report renders as markdown, and a little more), this
// checkout's build against another built checkout's (`--base`, /work/base-main by default), loaded in one process
// and run alternately. Each run imports a fresh instance of both modules (a new URL), so that a run starts with
// an empty cache, as a worker does; each run's CPU time is `process.cpuUsage` (the rendering is synchronous).
// The first run (`--warmup`) is not counted: each build's shiki compiles its grammars then.
// Outputs are compared too: the first texts the two render differently are printed, and the run fails.
// Needs both checkouts built (`pnpm --filter @cctrail/report build`, or `tsc -p tsconfig.build.json` in it).
//
//   node scripts/bench/markdown.mjs DIR... [--base /work/base-main] [--runs 5] [--warmup 1] [--repeat 1]

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

async function load(checkout, run) {
  // Since the views were put in folders, markdown lives in `views/markdown/` (a build may keep stale files above it).
  const nested = join(checkout, 'apps/report/dist/views/markdown');
  const dist = existsSync(join(nested, 'markdown.js')) ? nested : join(checkout, 'apps/report/dist/views');
  const highlight = await import(pathToFileURL(join(dist, 'highlight.js')).href);
  await highlight.loadHighlighter();
  const markdown = await import(`${pathToFileURL(join(dist, 'markdown.js')).href}?run=${run}`);
  return markdown.renderMarkdown;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      base: { type: 'string', default: '/work/base-main' },
      runs: { type: 'string', default: '5' },
      repeat: { type: 'string', default: '1' },
      warmup: { type: 'string', default: '1' },
    },
  });
  const texts = positionals.flatMap((dir) => messageTexts(resolve(dir)));
  const repeat = Number(values.repeat);
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const unique = new Set(texts).size;
  console.log(
    `${texts.length} texts (${unique} distinct), ${(chars / 1e6).toFixed(1)} M characters, ×${repeat}`,
  );
  const times = { base: [], this: [] };
  for (let run = 0; run < Number(values.runs); run++) {
    const base = await load(resolve(values.base), run);
    const mine = await load(root, run);
    const outs = { base: [], this: [] };
    const order = run % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
    for (const side of order) {
      const render = side === 'base' ? base : mine;
      const out = outs[side];
      times[side].push(
        cpuMs(() => {
          for (let r = 0; r < repeat; r++) for (const text of texts) out.push(render(text).value);
        }),
      );
    }
    let diffs = 0;
    for (let i = 0; i < outs.base.length; i++)
      if (outs.base[i] !== outs.this[i] && diffs++ < 5)
        console.log(`differs: ${JSON.stringify(texts[i % texts.length]).slice(0, 300)}`);
    if (diffs > 0) {
      console.log(`${diffs} texts rendered differently`);
      process.exitCode = 1;
    }
    if (run < Number(values.warmup)) {
      console.log(
        `warm-up run ${run + 1} (not counted): base ${times.base.pop().toFixed(0)} ms, this ${times.this.pop().toFixed(0)} ms`,
      );
      continue;
    }
    console.log(
      `run ${run + 1}: base ${times.base.at(-1).toFixed(0)} ms, this ${times.this.at(-1).toFixed(0)} ms`,
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
