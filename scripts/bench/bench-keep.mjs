// Benchmark 6: the archive that keeps its sources (#30). On the shared corpus and on the calibrated archive:
// what the archive costs on disk against its input, what a day of appends (1 % of the lines) adds to it, and the
// time of the SessionEnd hook's single-session archive. Only the build under test keeps sources.

import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { archives } from './bench-archive.mjs';
import { sessionFiles, sizeOf } from './files.mjs';
import { median, run, seconds, spread } from './measure.mjs';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/claude-projects');

/** Runs a command with `input` on its standard input: wall time in ms and exit code. */
function runWithInput(command, args, input, env) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => done({ ms: performance.now() - started, code, stderr }));
    child.stdin.end(input);
  });
}

/**
 * Appends about `share` of all lines to every tenth session's main transcript (as a day of work would: a few
 * sessions grow), each with lines from its own end. Returns the lines and bytes appended.
 */
function appendDay(dir, share) {
  const files = sessionFiles(dir).sort();
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const total = texts.reduce((n, t) => n + t.split('\n').length - 1, 0);
  const chosen = files.map((f, i) => [f, texts[i]]).filter((_, i) => i % 10 === 0);
  let left = Math.max(1, Math.round(total * share));
  let lines = 0;
  let bytes = 0;
  for (let i = 0; i < chosen.length && left > 0; i++) {
    const [file, text] = chosen[i];
    const own = text.trimEnd().split('\n');
    const count = Math.min(own.length, Math.ceil(left / (chosen.length - i)));
    const tail = `${own.slice(-count).join('\n')}\n`;
    appendFileSync(file, tail);
    left -= count;
    lines += count;
    bytes += Buffer.byteLength(tail);
  }
  return { lines, total, bytes };
}

/** The measurements on one input folder (copied first: the appends change it). */
async function onInput(ctx, name, input) {
  const build = ctx.builds[0];
  const work = join(ctx.work, `keep-${name}`);
  rmSync(work, { recursive: true, force: true });
  const copy = join(work, 'projects');
  cpSync(input, copy, { recursive: true });
  const archive = join(work, 'archive');
  const env = { CCTRAIL_CACHE_DIR: join(work, 'cache') };
  const first = await run(process.execPath, [build.cli, 'export', copy, '-o', archive], { env });
  if (first.code !== 0) ctx.log(name, 'export failed', first.stderr.slice(-400));
  const inputBytes = sizeOf(copy);
  const sources = sizeOf(join(archive, 'sources'));
  const whole = sizeOf(archive);
  const compact = join(work, 'sources-only');
  const only = await run(process.execPath, [build.cli, 'export', copy, '--sources-only', '-o', compact], {
    env,
  });
  if (only.code !== 0) ctx.log(name, 'export --sources-only failed', only.stderr.slice(-400));
  const compactBytes = sizeOf(compact);
  const day = appendDay(copy, 0.01);
  const second = await run(process.execPath, [build.cli, 'export', copy, '-o', archive], { env });
  if (second.code !== 0) ctx.log(name, 'second export failed', second.stderr.slice(-400));
  const grownSources = sizeOf(join(archive, 'sources'));
  const grownWhole = sizeOf(archive);
  // The hook: one session that just ended, archived into the archive of all the others.
  const session = sessionFiles(copy).sort()[0];
  const id = session
    .split('/')
    .pop()
    .replace(/\.jsonl$/, '');
  const hookInput = JSON.stringify({
    session_id: id,
    transcript_path: session,
    cwd: '/',
    hook_event_name: 'SessionEnd',
    reason: 'other',
  });
  const hook = [];
  for (let i = 0; i < ctx.runs; i++) {
    appendFileSync(session, `${readFileSync(session, 'utf8').trimEnd().split('\n').at(-1)}\n`);
    const r = await runWithInput(
      process.execPath,
      [build.cli, 'hook', 'run', '--archive', archive],
      hookInput,
      env,
    );
    if (r.code !== 0) ctx.log(name, 'hook run failed', r.stderr.slice(-400));
    hook.push(r.ms);
  }
  const pct = (part, of) => `${((100 * part) / of).toFixed(1)} %`;
  const row = [
    `| ${name} | ${(inputBytes / 1e6).toFixed(1)} MB | ${(sources / 1e6).toFixed(1)} MB (${pct(sources, inputBytes)})`,
    `${(whole / 1e6).toFixed(1)} MB (${pct(whole, inputBytes)})`,
    `${(compactBytes / 1e6).toFixed(1)} MB (${pct(compactBytes, inputBytes)})`,
    `${day.lines} of ${day.total} lines, ${(day.bytes / 1e6).toFixed(2)} MB`,
    `+${((grownSources - sources) / 1e6).toFixed(2)} MB (${pct(grownSources - sources, sources)})`,
    `+${((grownWhole - whole) / 1e6).toFixed(2)} MB (${pct(grownWhole - whole, whole)})`,
    `${seconds(first.ms)} / ${seconds(second.ms)}`,
    `${spread(hook, seconds)} |`,
  ].join(' | ');
  if (!ctx.keep) rmSync(work, { recursive: true, force: true });
  return { row, hookMs: median(hook) };
}

/** Benchmark 6. */
export async function keep(ctx) {
  const rows = [];
  if (existsSync(CORPUS)) rows.push((await onInput(ctx, 'shared corpus', CORPUS)).row);
  for (const archive of await archives({ ...ctx, profiles: ['calibrated'] }))
    rows.push((await onInput(ctx, `${archive.profile} (${archive.sessions} sessions)`, archive.dir)).row);
  return `## 6. The archive that keeps its sources (#30)

\`cctrail export IN -o ARCHIVE\` of the build under test (${ctx.builds[0].commit}) on a copy of each input; then 1 %
of the lines appended to every tenth session (lines from its own end), and the export run again; then the
SessionEnd hook (\`cctrail hook run --archive ARCHIVE\`, one session's JSON on stdin) ${ctx.runs} times, one line
appended before each. "Sources" is \`ARCHIVE/sources/\` (every transcript file, gzip level 4, appends as new gzip
members); "whole" adds the normalized session JSON files, the index and the manifest; an archive made with
\`--sources-only\` holds the sources, the index and the manifest only.

| input | input size | sources (of input) | whole archive (of input) | \`--sources-only\` archive (of input) | a day of appends | sources grew | archive grew | export first / second | hook, one session |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}
