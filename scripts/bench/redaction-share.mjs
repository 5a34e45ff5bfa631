// Redaction's share of a cold `cctrail report` (#26: ≤ 5 % of its CPU), measured as CPU time rather than profile
// samples (on a loaded host a sample's time is mostly waiting, and the shares of one build move by ±5 points):
// - the CPU (user + system, every thread) of a cold `cctrail report` of the calibrated archive, each build;
// - the CPU of the report's redaction over the same sessions: the privacy transform (`privacyTransform`, as
//   `exportSession` applies it to each session) of each build, loaded in this process and run alternately over
//   the sessions of an export of the archive, one transform a session; fastest and first pass (the first includes
//   compiling the rules, which each of the report's export workers does once);
// - the keywords that fire on the archive's strings: how often, in how many strings, and which rules they select
//   (the rules run only where one fires, so a keyword ordinary text holds costs a rule run per string).
// Needs both checkouts built (`pnpm build`).
//
//   node scripts/bench/redaction-share.mjs [--baseline /work/base-main] [--scale 0.1] [--runs 5] [--reports 1]

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { dataset } from './files.mjs';
import { stringsOf } from './json-strings.mjs';
import { median } from './measure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    baseline: { type: 'string', default: '/work/base-main' },
    scale: { type: 'string', default: '0.1' },
    runs: { type: 'string', default: '5' },
    reports: { type: 'string', default: '1' },
  },
});
const scale = Number(values.scale);
const builds = [
  ['baseline', resolve(values.baseline)],
  ['this', root],
];

/** CPU seconds (user + system, the process and its threads) of a cold report of `archive` with a checkout. */
function reportCpu(checkout, archive, work) {
  const out = join(work, 'site');
  const cache = join(work, 'cache');
  rmSync(out, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
  const cli = join(checkout, 'packages/cli/dist/bin.js');
  // bash's `time`: the CPU of the child as the kernel counted it when it ended.
  const script = `TIMEFORMAT='%U %S'; { time node "$0" report "$1" -o "$2" >/dev/null 2>&1; } 2>&1`;
  const text = execFileSync('bash', ['-c', script, cli, archive, out], {
    env: { ...process.env, CCTRAIL_CACHE_DIR: cache },
    encoding: 'utf8',
  });
  const [user, system] = text.trim().split(/\s+/).map(Number);
  return user + system;
}

/** The session files of an export, parsed. */
function sessionsOf(dir) {
  const files = [];
  const visit = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)))
      if (entry.isDirectory()) visit(join(path, entry.name));
      else if (entry.name.endsWith('.json')) files.push(join(path, entry.name));
  };
  visit(join(dir, 'sessions'));
  return files.map((file) => JSON.parse(readFileSync(file, 'utf8')));
}

/** CPU ms of this thread for one pass of a build's transform over the sessions, one transform a session. */
function transformPass(privacyTransform, sessions) {
  const started = process.cpuUsage();
  for (const session of sessions) privacyTransform({ redact: true, shortHome: false })(session);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** Which keywords of a build's pre-filter fire on the strings, most first. */
async function keywordHits(checkout, strings) {
  const dist = join(checkout, 'packages/cli/dist/privacy');
  const load = (name) => import(pathToFileURL(join(dist, name)).href);
  const { SECRET_PATTERNS } = await load('rules.js');
  const { presetRules } = await load('preset-rules.js');
  const { gitleaksKeywords } = await load('gitleaks-scan.js');
  const { KeywordScan } = await load('keyword-scan.js');
  const keywords = new Map();
  const add = (word, anyCase, rule) => {
    const key = anyCase ? `i${word.toLowerCase()}` : `c${word}`;
    if (!keywords.has(key)) keywords.set(key, { word, anyCase, rules: new Set() });
    keywords.get(key).rules.add(rule);
  };
  for (const rule of SECRET_PATTERNS)
    for (const word of rule.keywords) add(word, rule.anyCase === true, rule.kind);
  gitleaksKeywords().forEach((words, i) => {
    for (const word of words) add(word, true, `gitleaks #${i}`);
  });
  for (const rule of presetRules())
    for (const { words, anyCase } of rule.keywords ?? [])
      for (const word of words) add(word, anyCase, rule.kind);
  const list = [...keywords.values()];
  const scan = new KeywordScan(list);
  const count = list.map(() => ({ hits: 0, strings: 0, chars: 0 }));
  const hits = [];
  let selected = 0;
  let selectedChars = 0;
  for (const text of strings) {
    hits.length = 0;
    const found = scan.scan(text, hits);
    if (found === 0) continue;
    selected++;
    selectedChars += text.length;
    const seen = new Set();
    for (let h = 0; h < 2 * found; h += 2) {
      count[hits[h]].hits++;
      seen.add(hits[h]);
    }
    for (const k of seen) {
      count[k].strings++;
      count[k].chars += text.length;
    }
  }
  const rows = list
    .map((k, i) => ({ ...k, ...count[i] }))
    .filter((k) => k.hits > 0)
    .sort((a, b) => b.hits - a.hits);
  return { keywords: list.length, selected, selectedChars, rows };
}

const work = mkdtempSync(join(tmpdir(), 'cctrail-redaction-share-'));
try {
  const archive = await dataset(
    join(root, '.bench'),
    `archive-550-calibrated-x${scale}`,
    { profile: 'calibrated', sessions: Math.max(5, Math.round(550 * scale)), totalMb: 700 * scale, seed: 13 },
    console.error,
  );
  const exported = join(work, 'export');
  execFileSync(
    process.execPath,
    [join(root, 'packages/cli/dist/bin.js'), 'export', archive, '-o', exported],
    {
      env: { ...process.env, CCTRAIL_CACHE_DIR: join(work, 'export-cache') },
      stdio: 'ignore',
    },
  );
  const sessions = sessionsOf(exported);
  const strings = stringsOf(sessions);
  const chars = strings.reduce((sum, s) => sum + s.length, 0);
  const transforms = {};
  for (const [name, checkout] of builds)
    transforms[name] = (
      await import(pathToFileURL(join(checkout, 'packages/cli/dist/privacy/transform.js')).href)
    ).privacyTransform;
  const passes = Object.fromEntries(builds.map(([name]) => [name, []]));
  for (let run = 0; run < Number(values.runs); run++)
    for (const [name] of run % 2 ? [...builds].reverse() : builds)
      passes[name].push(transformPass(transforms[name], sessions));
  const reports = Object.fromEntries(builds.map(([name]) => [name, []]));
  for (let run = 0; run < Number(values.reports); run++)
    for (const [name, checkout] of run % 2 ? [...builds].reverse() : builds)
      reports[name].push(reportCpu(checkout, archive, join(work, name)));
  console.log(
    `calibrated archive ×${scale}: ${sessions.length} sessions exported, ${strings.length.toLocaleString('en')} strings and keys, ${(chars / 1e6).toFixed(1)} M characters\n`,
  );
  console.log(
    '| build | transform CPU, fastest (first, median) | MB/s of string text | cold report CPU (median) | redaction share |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name] of builds) {
    const fastest = Math.min(...passes[name]);
    const report = median(reports[name]);
    console.log(
      `| ${name} | ${fastest.toFixed(0)} ms (${passes[name][0].toFixed(0)}, ${median(passes[name]).toFixed(0)}) | ` +
        `${(chars / 1e3 / fastest).toFixed(0)} | ${report.toFixed(2)} s (${reports[name].map((s) => s.toFixed(1)).join(', ')}) | ` +
        `${((100 * median(passes[name])) / 1000 / report).toFixed(1)} % |`,
    );
  }
  const { keywords, selected, selectedChars, rows } = await keywordHits(root, strings);
  console.log(
    `\nKeywords of this build's pre-filter: ${keywords}; strings holding one: ${selected.toLocaleString('en')} (${(selectedChars / 1e6).toFixed(1)} M characters)\n`,
  );
  console.log('| keyword | found | strings | characters of those strings | rules it selects |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const k of rows.slice(0, 15))
    console.log(
      `| \`${JSON.stringify(k.word).slice(1, -1)}\`${k.anyCase ? ' (any case)' : ''} | ${k.hits.toLocaleString('en')} | ${k.strings.toLocaleString('en')} | ${(k.chars / 1e6).toFixed(1)} M | ${[...k.rules].join(', ')} |`,
    );
} finally {
  rmSync(work, { recursive: true, force: true });
}
