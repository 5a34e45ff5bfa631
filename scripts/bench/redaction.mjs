// Redaction throughput (#26): `redactText` over every string and object key of the sessions of the calibrated
// benchmark archive (the generator's, as benchmark 3 makes it) and of ../shared/corpus, in MB/s of string text
// (UTF-16 code units, millions a second), this checkout's engine against another commit's (`--ref`, main by
// default), loaded in one process and run alternately. The other commit's redaction module is bundled from its
// sources (`git archive`) with esbuild, so neither needs a build of the other. Each pass's CPU time is
// `process.cpuUsage` (this thread: the passes are synchronous). Outputs are compared too: every string the two
// engines redact differently is listed (`--diffs N` of them, with their reason to be read by a person).
// With `--scanners`, the keyword scan alone is compared with its alternatives on the same keywords: the npm
// Aho-Corasick packages `modern-ahocorasick` and `@monyone/aho-corasick`, one combined expression, one `indexOf`
// a keyword (texts lower-cased for the keywords of any letter case).
// Needs this checkout built (`pnpm --filter cctrail build`).
//
//   node --max-old-space-size=8192 scripts/bench/redaction.mjs [--scale 0.1] [--ref main] [--runs 5]
//     [--corpus ../shared/corpus/claude-projects] [--diffs 10] [--scanners]

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AhoCorasick as MonyoneAhoCorasick } from '@monyone/aho-corasick';
import ModernAhoCorasick from 'modern-ahocorasick';
import { archives } from './bench-archive.mjs';
import { stringsOf } from './json-strings.mjs';
import { median } from './measure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'packages/cli');

/** Every string value and object key of the JSON lines of the transcripts under a folder (image data left out). */
export function stringsUnder(dir) {
  const out = [];
  const visit = (path) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) visit(child);
      else if (name.endsWith('.jsonl'))
        for (const line of readFileSync(child, 'utf8').split('\n')) {
          if (line === '') continue;
          try {
            stringsOf([JSON.parse(line)], out);
          } catch {
            out.push(line);
          }
        }
    }
  };
  visit(dir);
  return out;
}

/** The redaction module of a commit, bundled from its sources; `redactText` of it. */
async function engineAt(ref, work) {
  const dir = join(work, ref.replace(/[^\w.-]/g, '_'));
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['-C', root, 'archive', ref, 'packages/cli/src'], { maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  const entry = ['packages/cli/src/privacy/redact.ts', 'packages/cli/src/redact.ts']
    .map((path) => join(dir, path))
    .find((path) => existsSync(path));
  if (!entry) throw new Error(`${ref}: no redaction module`);
  const { build } = createRequire(join(cli, 'package.json'))('esbuild');
  const outfile = join(dir, 'redact.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    nodePaths: [join(cli, 'node_modules')],
    logLevel: 'error',
  });
  return (await import(pathToFileURL(outfile).href)).redactText;
}

/** CPU ms of one pass of `redact` over the strings. */
function pass(redact, strings) {
  const started = process.cpuUsage();
  for (const text of strings) redact(text);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** The strings two engines redact differently. */
function differences(a, b, strings) {
  const out = [];
  for (const text of strings) {
    const x = a(text);
    const y = b(text);
    if (x.text !== y.text || x.count !== y.count) out.push({ text, before: y, after: x });
  }
  return out;
}

/** Every keyword of the redaction rules of this checkout, as the pre-filter holds them. */
async function keywords() {
  const dist = join(cli, 'dist/privacy');
  const { SECRET_PATTERNS } = await import(pathToFileURL(join(dist, 'rules.js')).href);
  const { presetRules } = await import(pathToFileURL(join(dist, 'preset-rules.js')).href);
  const all = [
    ...SECRET_PATTERNS.flatMap((rule) =>
      rule.keywords.map((word) => ({ word, anyCase: rule.anyCase === true })),
    ),
    ...presetRules().flatMap((rule) =>
      (rule.keywords ?? []).flatMap(({ words, anyCase }) => words.map((word) => ({ word, anyCase }))),
    ),
  ];
  // Once each, as the pre-filter holds them (a keyword of several rules is one keyword of the automaton).
  const once = new Map(all.map((k) => [k.anyCase ? `i${k.word.toLowerCase()}` : `c${k.word}`, k]));
  return [...once.values()];
}

/**
 * Ways to find every keyword in a text and where (what the pre-filter needs: the rules run around each), each
 * returning how many it found.
 */
async function scanners() {
  const list = await keywords();
  const { KeywordScan } = await import(pathToFileURL(join(cli, 'dist/privacy/keyword-scan.js')).href);
  const scan = new KeywordScan(list);
  const hits = [];
  // The others find lower-cased keywords in lower-cased text (exact ones would be checked where they are).
  const lower = [...new Set(list.map(({ word }) => word.toLowerCase()))];
  const modern = new ModernAhoCorasick(lower);
  const monyone = new MonyoneAhoCorasick(lower);
  const literal = (word) => word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  // A look-ahead, so that keywords overlapping one another are all found.
  const combined = new RegExp(`(?=${lower.map(literal).join('|')})`, 'g');
  return {
    'KeywordScan (this table)': (text) => {
      hits.length = 0;
      return scan.scan(text, hits);
    },
    'one expression (look-ahead), lower-cased text': (text) => {
      let n = 0;
      for (const _ of text.toLowerCase().matchAll(combined)) n++;
      return n;
    },
    'indexOf a keyword, lower-cased text': (text) => {
      const folded = text.toLowerCase();
      let n = 0;
      for (const word of lower)
        for (let at = folded.indexOf(word); at !== -1; at = folded.indexOf(word, at + 1)) n++;
      return n;
    },
    'modern-ahocorasick 3.3 count': (text) => modern.count(text.toLowerCase()),
    '@monyone/aho-corasick 1.1 matchInText': (text) => monyone.matchInText(text.toLowerCase()).length,
  };
}

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '0.1' },
    ref: { type: 'string', default: 'main' },
    runs: { type: 'string', default: '5' },
    corpus: { type: 'string', default: join(root, '../shared/corpus/claude-projects') },
    diffs: { type: 'string', default: '10' },
    scanners: { type: 'boolean', default: false },
  },
});
const work = mkdtempSync(join(tmpdir(), 'cctrail-redaction-'));
try {
  const after = (await import(pathToFileURL(join(cli, 'dist/privacy/redact.js')).href)).redactText;
  const before = await engineAt(values.ref, work);
  const scale = Number(values.scale);
  const [calibrated] = await archives({
    work: join(root, '.bench'),
    profiles: ['calibrated'],
    scale,
    log: (line) => console.error(line),
  });
  const sets = [[`calibrated archive ×${scale}`, calibrated.dir]];
  if (existsSync(values.corpus)) sets.push(['shared corpus', values.corpus]);
  console.log(`| strings | M characters | engine | CPU, fastest (median) of ${values.runs} | MB/s |`);
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, dir] of sets) {
    const strings = stringsUnder(dir);
    const chars = strings.reduce((sum, s) => sum + s.length, 0);
    const times = { [values.ref]: [], this: [] };
    const engines = { [values.ref]: before, this: after };
    for (let run = 0; run < Number(values.runs); run++)
      for (const key of run % 2 ? [values.ref, 'this'] : ['this', values.ref])
        times[key].push(pass(engines[key], strings));
    for (const key of [values.ref, 'this']) {
      const fastest = Math.min(...times[key]);
      console.log(
        `| ${name}: ${strings.length.toLocaleString('en')} | ${(chars / 1e6).toFixed(1)} | ${key} | ` +
          `${fastest.toFixed(0)} ms (${median(times[key]).toFixed(0)} ms) | ${(chars / 1e3 / fastest).toFixed(0)} |`,
      );
    }
    const diffs = differences(after, before, strings);
    console.log(`\n${name}: ${diffs.length} strings redacted differently`);
    for (const { text, before: b, after: a } of diffs.slice(0, Number(values.diffs)))
      console.log(
        JSON.stringify({
          text: text.slice(0, 300),
          before: b.text.slice(0, 300),
          after: a.text.slice(0, 300),
        }),
      );
    console.log('');
    if (!values.scanners) continue;
    console.log(`| ${name}: keyword scan | CPU, fastest of 3 | MB/s | keywords found |`);
    console.log('| --- | --- | --- | --- |');
    for (const [scanner, count] of Object.entries(await scanners())) {
      let found = 0;
      const times = [];
      for (let run = 0; run < 3; run++) {
        found = 0;
        times.push(pass((text) => (found += count(text)), strings));
      }
      const fastest = Math.min(...times);
      console.log(
        `| ${scanner} | ${fastest.toFixed(0)} ms | ${(chars / 1e3 / fastest).toFixed(0)} | ${found} |`,
      );
    }
    console.log('');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
