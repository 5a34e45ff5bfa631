// Benchmark 4: `cctrail report` at scale (a full build, a rebuild after one session changed) and the report's
// own build alone on the exported archive, for every build and both profiles.

import {
  appendFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { archives } from './bench-archive.mjs';
import { inTurn } from './builds.mjs';
import { sessionFiles, warm } from './files.mjs';
import { mb, median, run, seconds, spread } from './measure.mjs';

const kb = (b) => `${(b / 1024).toFixed(0)} KiB`;

/** Weights of a built report: a session's first page (median), scripts and styles, the published folder. */
function pageWeights(out) {
  if (!existsSync(out)) return 'n/a';
  const pages = [];
  let assets = 0;
  let search = 0;
  let folder = 0;
  const stack = [out];
  while (stack.length) {
    const at = stack.pop();
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const info = statSync(path);
      // The cache folder is not part of what is published.
      if (info.isDirectory()) {
        if (name !== '.cctrail-cache') stack.push(path);
        continue;
      }
      folder += info.size;
      const rel = path.slice(out.length + 1);
      if (/^s\/[^/]+\/[^/]+\/index\.html$/.test(rel)) pages.push(info.size);
      // The transcript index's files are data a query loads a few of, not scripts every page loads.
      else if (rel.startsWith('_cctrail/search/')) search += info.size;
      else if (/\.(js|css)$/.test(name)) assets += info.size;
    }
  }
  return `a session's first page (median over sessions) ${pages.length ? `${kb(median(pages))} of HTML` : 'n/a'}; scripts and styles (Mermaid's bundle included, loaded only by session pages) ${kb(assets)}; the transcript index's files ${kb(search)}; the published folder ${mb(folder)} (the build cache excluded)`;
}

/** Times `fn(build, i)` for every build, runs interleaved. */
async function timed(ctx, fn) {
  const results = Object.fromEntries(ctx.builds.map((b) => [b.name, []]));
  for (let i = 0; i < ctx.runs; i++)
    for (const b of inTurn(ctx.builds, i)) results[b.name].push(await fn(b, i));
  return results;
}

async function onArchive(ctx, { dir, profile, sessions }) {
  const { builds, figures, work } = ctx;
  const out = (b) => join(work, `report-${profile}-${b.name}`);
  // The report's cache (archive and rendered pages) lives outside the output folder: a full build clears both.
  const env = (b) => ({ CCTRAIL_CACHE_DIR: join(work, `report-cache-${b.name}`) });
  const report = async (b, what) => {
    const r = await run(process.execPath, [b.cli, 'report', dir, '-o', out(b)], { env: env(b) });
    if (r.code !== 0) ctx.log(b.name, what, 'failed', r.stderr.slice(-800));
    return r;
  };
  const full = await timed(ctx, (b) => {
    rmSync(out(b), { recursive: true, force: true });
    rmSync(env(b).CCTRAIL_CACHE_DIR, { recursive: true, force: true });
    warm(dir);
    return report(b, 'report');
  });
  // Rebuild after one session changed: a prompt appended to one session file, the output folder kept.
  const changed = sessionFiles(dir).find((f) => !basename(f).startsWith('checkpoint-'));
  const original = readFileSync(changed);
  const last = JSON.parse(original.toString('utf8').trimEnd().split('\n').at(-1));
  const rebuild = await timed(ctx, (b, i) => {
    if (b === inTurn(builds, i)[0])
      appendFileSync(
        changed,
        `${JSON.stringify({ type: 'user', uuid: `bench-change-${i}`, parentUuid: last.uuid ?? null, sessionId: last.sessionId, timestamp: new Date(Date.UTC(2026, 1, 1, 0, i)).toISOString(), message: { role: 'user', content: `one more prompt ${i}` } })}\n`,
      );
    warm(dir);
    return report(b, 'rebuild');
  });
  writeFileSync(changed, original);
  const weights = pageWeights(out(builds[0]));
  const rows = [];
  for (const b of builds) {
    const tag = builds.length > 1 ? ` (${b.name})` : '';
    const fullMs = full[b.name].map((r) => r.ms);
    const peak = full[b.name].map((r) => r.peakRss);
    const again = rebuild[b.name].map((r) => r.ms);
    const share = median(again) / median(fullMs);
    rows.push(
      `| ${profile} | full build, wall${tag} | ${spread(fullMs, seconds)} | ≤ 30 s: ${median(fullMs) <= 30000 ? 'met' : '**missed**'} |`,
      `| ${profile} | per session page${tag} | ${seconds(median(fullMs) / Math.max(1, sessions))} | |`,
      `| ${profile} | peak RSS${tag} | ${spread(peak, mb)} | < 1 GiB: ${median(peak) < 1073741824 ? 'met' : '**missed**'} |`,
      `| ${profile} | rebuild after one session changed${tag} | ${spread(again, seconds)} (${(share * 100).toFixed(1)} % of full) | ≤ 20 %: ${share <= 0.2 ? 'met' : '**missed**'} |`,
    );
    figures.add(`4. report, full build, ${profile} archive`, b.name, fullMs, seconds);
    figures.add(`4. report, peak RSS, ${profile} archive`, b.name, peak, mb);
    figures.add(`4. report, rebuild, ${profile} archive`, b.name, again, seconds);
  }
  if (profile === 'calibrated') rows.push(...(await reportAlone(ctx, dir)));
  for (const b of builds) rmSync(out(b), { recursive: true, force: true });
  return { rows, weights: `Weight (${profile}): ${weights}.` };
}

/** The report's own build (`buildReport`) on the archive each build's `cctrail export` wrote. */
async function reportAlone(ctx, dir) {
  const { builds, figures, work } = ctx;
  const exported = (b) => join(work, `export-calibrated-${b.name}`);
  const out = (b) => join(work, `report-alone-${b.name}`);
  for (const b of builds) {
    rmSync(exported(b), { recursive: true, force: true });
    const r = await run(process.execPath, [b.cli, 'export', dir, '-o', exported(b)], {
      env: { CCTRAIL_CACHE_DIR: join(work, 'export-cache') },
    });
    if (r.code !== 0) ctx.log(b.name, 'export failed', r.stderr.slice(-400));
  }
  const alone = await timed(ctx, (b) => {
    rmSync(out(b), { recursive: true, force: true });
    warm(exported(b));
    return run(process.execPath, [
      join(import.meta.dirname, 'report-build.mjs'),
      b.root,
      exported(b),
      out(b),
    ]);
  });
  const rows = [];
  for (const b of builds) {
    const failed = alone[b.name].find((r) => r.code !== 0);
    if (failed) ctx.log(b.name, 'buildReport failed', failed.stderr.slice(-600));
    const tag = builds.length > 1 ? ` (${b.name})` : '';
    const ms = alone[b.name].map((r) => r.ms);
    const peak = alone[b.name].map((r) => r.peakRss);
    rows.push(
      `| calibrated | \`buildReport\` alone on the exported archive${tag} | ${failed ? 'failed' : `${spread(ms, seconds)}, peak RSS ${spread(peak, mb)}`} | |`,
    );
    figures.add('4. buildReport alone, calibrated archive', b.name, ms, seconds);
    rmSync(out(b), { recursive: true, force: true });
    rmSync(exported(b), { recursive: true, force: true });
  }
  return rows;
}

/** Runs benchmark 4 and returns its section. */
export async function report(ctx) {
  const list = await archives(ctx);
  const results = [];
  for (const a of list) results.push(await onArchive(ctx, a));
  return `## 4. The report at scale

\`cctrail report\` on the archives of benchmark 3 (${list.map((a) => `${a.profile}: ${a.sessions} session files`).join(', ')}): export, redaction and the pages
rendered with the site's bundle. \`buildReport\` alone: the report package's build on the archive \`cctrail export\`
wrote (what \`cctrail report\` does after its export; it replaces the log-only \`apps/report/test/bench.test.ts\`).

| archive | measure | median (min–max) | target |
| --- | --- | --- | --- |
${results.flatMap((r) => r.rows).join('\n')}

${results.map((r) => r.weights).join('\n')}
`;
}
