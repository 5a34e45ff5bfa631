// `cctrail report --watch` in the live benchmark (#29): the latency from an append to the session's last page
// written into the folder.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { appendLines, biggest, lastEntry } from './live-session.mjs';
import { median } from './measure.mjs';

/** The last transcript page of a session in a report folder (the highest `pN`, else the session's page). */
function lastPageFile(site, sessionId) {
  const id = sessionId.toLowerCase();
  for (const project of readdirSync(join(site, 's'))) {
    const dir = join(site, 's', project, id);
    if (!existsSync(dir)) continue;
    const pages = readdirSync(dir)
      .map((d) => /^p(\d+)$/.exec(d)?.[1])
      .filter(Boolean)
      .map(Number);
    return join(dir, pages.length ? `p${Math.max(...pages)}` : '', 'index.html');
  }
  throw new Error(`no page of ${sessionId} in ${site}`);
}

/**
 * `cctrail report --watch` on the same archive: appends one pair at a time to the big session and waits for the
 * session's last page on disk to hold the marker. Latency = append written → page written with the marker.
 */
export async function measureWatch({ work, APPENDS, CLI, settle, log }) {
  const input = join(work, 'projects');
  const big = biggest(input);
  const site = join(work, 'watch-site');
  rmSync(site, { recursive: true, force: true });
  rmSync(join(work, 'watch-cache'), { recursive: true, force: true });
  const child = spawn(
    process.execPath,
    [CLI, 'report', '--watch', input, '-o', site, ...(settle ? ['--settle', settle] : [])],
    {
      env: { ...process.env, NO_COLOR: '1', CCTRAIL_CACHE_DIR: join(work, 'watch-cache') },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  while (!stderr.includes('Watching')) await new Promise((r) => child.stderr.once('data', r));
  let parent = lastEntry(big.path);
  const latencies = [];
  for (let i = 0; i < APPENDS; i++) {
    const marker = `bench-watch-marker-${i}-${Date.now()}`;
    const { text, last } = appendLines(parent, marker, i);
    parent = last;
    const t0 = performance.now();
    appendFileSync(big.path, text);
    for (;;) {
      let page = '';
      try {
        page = readFileSync(lastPageFile(site, parent.sessionId), 'utf8');
      } catch {}
      if (page.includes(marker)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    latencies.push(performance.now() - t0);
    log(`watch append ${i + 1}/${APPENDS}: ${(latencies.at(-1) / 1000).toFixed(2)} s`);
  }
  const rebuilds = (stderr.match(/rebuilding…/g) ?? []).length;
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));
  const sorted = [...latencies].sort((a, b) => a - b);
  return { median: median(latencies), max: sorted.at(-1), rebuilds };
}
