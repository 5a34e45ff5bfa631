// Benchmark 3: `cctrail stats --json` on a whole archive against ccusage, for every build and both profiles.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inTurn } from './builds.mjs';
import { dataset, sessionFiles, sizeOf, warm } from './files.mjs';
import { mb, median, run, seconds, spread } from './measure.mjs';

/** The archives of benchmarks 3 and 4, one per profile of `ctx.profiles` (calibrated, then legacy, by default). */
export async function archives(ctx) {
  const list = [];
  for (const profile of ctx.profiles) {
    const options = {
      profile,
      sessions: Math.max(5, Math.round(550 * ctx.scale)),
      totalMb: 700 * ctx.scale,
      seed: 13,
    };
    const dir = await dataset(ctx.work, `archive-550-${profile}-x${ctx.scale}`, options, ctx.log);
    list.push({ profile, dir, sessions: sessionFiles(dir).length, bytes: sizeOf(dir) });
  }
  return list;
}

function ensureCcusage(work, log) {
  const prefix = join(work, 'ccusage');
  const bin = join(prefix, 'node_modules/.bin/ccusage');
  if (!existsSync(bin)) {
    log('installing ccusage 20.0.24 for the comparison');
    mkdirSync(prefix, { recursive: true });
    const packages = ['ccusage@20.0.24', '@ccusage/ccusage-linux-x64@20.0.24'];
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', ...packages],
      { stdio: 'ignore' },
    );
  }
  return bin;
}

/** Runs benchmark 3 on one archive: rows of the timing table, the ratio lines and the token totals. */
async function onArchive(ctx, archive, ccusage) {
  const { builds, figures } = ctx;
  const { dir, profile } = archive;
  const env = { CCTRAIL_CACHE_DIR: join(ctx.work, 'stats-cache') };
  const theirs = [];
  const ours = Object.fromEntries(builds.map((b) => [b.name, { first: [], again: [], out: null }]));
  // Each run takes a few seconds and this machine's speed drifts from minute to minute: many runs, and the ratio
  // taken pair by pair (each build's first run against the ccusage run of the same round). A first run finds no
  // digest cached; the run after it finds every digest cached.
  for (let i = 0; i < ctx.archiveRuns; i++) {
    warm(dir);
    const c = await run(ccusage, ['session', '--json', '--offline'], {
      env: { CLAUDE_CONFIG_DIR: resolve(dir, '..') },
    });
    if (c.code !== 0) ctx.log('ccusage failed', c.stderr.slice(-400));
    theirs.push(c);
    for (const b of inTurn(builds, i)) {
      rmSync(env.CCTRAIL_CACHE_DIR, { recursive: true, force: true });
      warm(dir);
      const first = await run(process.execPath, [b.cli, 'stats', '--json', dir], { env });
      warm(dir);
      const again = await run(process.execPath, [b.cli, 'stats', '--json', dir], { env });
      if (first.code !== 0) ctx.log(b.name, 'stats failed', first.stderr.slice(-400));
      if (again.stdout !== first.stdout) ctx.log(b.name, 'stats printed something else from its cache');
      ours[b.name].first.push(first.ms);
      ours[b.name].again.push(again.ms);
      ours[b.name].out ??= first.code === 0 ? first.stdout : null;
    }
  }
  const theirMs = theirs.map((r) => r.ms);
  const rows = [`| ${profile} | ccusage session --json --offline | ${spread(theirMs, seconds)} |`];
  const ratios = [];
  for (const b of builds) {
    const tag = builds.length > 1 ? ` (${b.name})` : '';
    const { first, again } = ours[b.name];
    rows.push(
      `| ${profile} | cctrail stats --json${tag}, first run (nothing cached) | ${spread(first, seconds)} |`,
      `| ${profile} | cctrail stats --json${tag}, next run (digests cached) | ${spread(again, seconds)} |`,
    );
    const pairs = first.map((ms, i) => ms / theirMs[i]);
    const ratio = median(pairs);
    const againRatio = median(again.map((ms, i) => ms / theirMs[i]));
    figures.add(`3. stats, first run, ${profile} archive`, b.name, first, seconds);
    figures.add(`3. stats / ccusage, first run, ${profile} archive`, b.name, pairs, (r) => r.toFixed(2));
    figures.add(`3. stats, next run, ${profile} archive`, b.name, again, seconds);
    ratios.push(
      `- ${profile} archive${tag}: **${ratio.toFixed(2)}** (${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)}; ratio of the medians ${(median(first) / median(theirMs)).toFixed(2)}), target ≤ 2: ${ratio <= 2 ? 'met' : '**missed**'}; on the next run ${againRatio.toFixed(2)}.`,
    );
  }
  const stats = JSON.parse(ours[builds[0].name].out ?? '{}');
  const mine = stats?.totals?.usage ?? {};
  const t = theirs.find((r) => r.code === 0);
  const ccusageJson = t ? JSON.parse(t.stdout) : {};
  const their = ccusageJson.totals ?? {};
  const tokens = [
    ['input', mine.inputTokens, their.inputTokens],
    ['output', mine.outputTokens, their.outputTokens],
    ['cache creation', mine.cacheCreationInputTokens, their.cacheCreationTokens],
    ['cache read', mine.cacheReadInputTokens, their.cacheReadTokens],
  ];
  const agree = tokens.every(([, a, b]) => a === b);
  const totals = `Token totals of the ${profile} archive ${agree ? 'agree' : '**DISAGREE**'}: ${tokens.map(([k, a, b]) => (a === b ? `${k} ${a}` : `${k} ${a} (ccusage ${b})`)).join(', ')}.`;
  return { rows, ratios, totals: `${totals}\n${costComparison(profile, stats?.cost, ccusageJson)}` };
}

/**
 * Total cost of cctrail (`stats --json`, priced with @pydantic/genai-prices) against ccusage's (`session --json
 * --offline`, priced with LiteLLM's table), and per model when they differ by more than 1 %.
 */
function costComparison(profile, cost, ccusageJson) {
  if (!cost) return `Cost of the ${profile} archive: this build of cctrail prints no cost.`;
  const theirs = ccusageJson?.totals?.totalCost ?? null;
  if (typeof theirs !== 'number') return `Cost of the ${profile} archive: ccusage printed no cost.`;
  // ccusage prices the API responses of the transcripts; cctrail's total also holds the runs whose transcript is
  // missing, priced from what their spawn reported (#28): those are compared apart.
  const reported = cost.reportedBySpawn?.usd ?? 0;
  const ours = cost.total.usd - reported;
  const share = theirs === 0 ? 0 : (ours - theirs) / theirs;
  const within = Math.abs(share) <= 0.01;
  const usd = (n) => `$${n.toFixed(2)}`;
  const lines = [
    `Cost of the ${profile} archive: cctrail ${usd(ours)} (${cost.priceTable.name} ${cost.priceTable.version}), ` +
      `ccusage ${usd(theirs)} (LiteLLM's table), difference ${(share * 100).toFixed(2)} %: ` +
      `${within ? 'within 1 %' : '**more than 1 %**'}` +
      `${cost.total.unpriced > 0 ? `; ${cost.total.unpriced} responses without a price in cctrail (${cost.unpricedModels.join(', ')})` : ''}.`,
  ];
  if (reported > 0)
    lines.push(
      `Runs whose transcript is missing, priced from what their spawn reported: ${usd(reported)} more in cctrail's total (${usd(cost.total.usd)}), which ccusage cannot see.`,
    );
  // Web searches are billed per search; neither total holds their fee (ccusage prices tokens only).
  if (cost.webSearch)
    lines.push(
      `Web searches: ${cost.webSearch.requests}, fee ${usd(cost.webSearch.usd)} in cctrail` +
        `${cost.webSearch.unpriced > 0 ? ` (${cost.webSearch.unpriced} without a price)` : ''}, in neither total.`,
    );
  const byModel = new Map();
  for (const session of ccusageJson.session ?? [])
    for (const b of session.modelBreakdowns ?? [])
      byModel.set(b.modelName, (byModel.get(b.modelName) ?? 0) + b.cost);
  const models = [...new Set([...Object.keys(cost.byModel), ...byModel.keys()])].sort();
  const differing = models.filter((m) => {
    const a = cost.byModel[m]?.usd ?? 0;
    const b = byModel.get(m) ?? 0;
    return Math.abs(a - b) > 0.01 * Math.max(a, b);
  });
  if (differing.length > 0) {
    lines.push('', '| model | cctrail | ccusage |', '| --- | --- | --- |');
    for (const m of differing)
      lines.push(`| ${m} | ${usd(cost.byModel[m]?.usd ?? 0)} | ${usd(byModel.get(m) ?? 0)} |`);
  }
  return lines.join('\n');
}

/** Runs benchmark 3 and returns its section. */
export async function archive(ctx) {
  const list = await archives(ctx);
  const ccusage = ensureCcusage(ctx.work, ctx.log);
  const results = [];
  for (const a of list) results.push(await onArchive(ctx, a, ccusage));
  return `## 3. A whole archive against ccusage

${list.map((a) => `The ${a.profile} archive: ${mb(a.bytes)} in ${a.sessions} session files (plus their sub-agent files).`).join('\n')}
\`cctrail stats --json\` (a full DAG analysis of every session) against \`ccusage session --json --offline\`
(ccusage 20.0.24, which sums tokens and prices them) with \`CLAUDE_CONFIG_DIR\` pointing at the same folder.

| archive | tool | wall time, median (min–max) |
| --- | --- | --- |
${results.flatMap((r) => r.rows).join('\n')}

Ratio cctrail / ccusage on a first run, median of the ${ctx.archiveRuns} back-to-back pairs:
${results.flatMap((r) => r.ratios).join('\n')}

${results.map((r) => r.totals).join('\n')}
`;
}
