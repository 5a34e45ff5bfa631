import { runsOnce } from '@cctrail/core/archive';
import type { ManifestSession, ManifestSidechain, SiteManifest } from '../site/site-model.js';

/**
 * Runs without their transcript in the archive's totals, as `cctrail stats` counts them (core's `runsOnce`): each
 * run once across files (a continued session repeats its spawn, and so its run), never when a file holds its
 * transcript, none of a duplicate copy. The index's figures (tokens, cost, per project, per day) add these; a
 * session's own figures add its own runs, as its page does.
 */

/** What reported runs add to a total. */
export interface ReportedSum {
  runs: number;
  tokens: number;
  usd: number;
  unpriced: number;
}

const counted = new WeakMap<SiteManifest, Map<ManifestSession, ManifestSidechain[]>>();

/**
 * The runs reported by their spawns that the archive's totals count, by the session that counts them.
 *
 * @param m The site manifest.
 */
export function countedReported(m: SiteManifest): Map<ManifestSession, ManifestSidechain[]> {
  const known = counted.get(m);
  if (known) return known;
  const sessions = m.projects.flatMap((p) => p.sessions.map((s) => ({ p, s })));
  const once = runsOnce(
    sessions.map(({ p, s }) => ({
      scope: p.folder ?? p.id,
      runs: s.sidechains,
      counted: s.summary.duplicateOf === null,
    })),
  );
  const out = new Map<ManifestSession, ManifestSidechain[]>();
  sessions.forEach(({ s }, i) => {
    const runs = once[i]!.filter((run) => run.reported);
    if (runs.length > 0) out.set(s, runs);
  });
  counted.set(m, out);
  return out;
}

/**
 * Reported runs summed.
 *
 * @param runs Runs reported by their spawns (`reported`).
 */
function reportedSum(runs: Iterable<ManifestSidechain>): ReportedSum {
  const sum: ReportedSum = { runs: 0, tokens: 0, usd: 0, unpriced: 0 };
  for (const run of runs) {
    sum.runs++;
    sum.tokens += run.tokens;
    sum.usd += run.cost.usd;
    sum.unpriced += run.cost.unpriced;
  }
  return sum;
}

/**
 * What the archive's totals add for runs reported by their spawns, or those of some sessions only.
 *
 * @param m The site manifest.
 * @param only The sessions to sum over (a project's); all when absent.
 */
export function archiveReported(m: SiteManifest, only?: readonly ManifestSession[]): ReportedSum {
  const runs = countedReported(m);
  const sessions = only ?? [...runs.keys()];
  return reportedSum(sessions.flatMap((s) => runs.get(s) ?? []));
}

/**
 * The reported runs a session lists itself (its page's figures), whatever the archive counts.
 *
 * @param s A session of the manifest.
 */
export function ownReported(s: ManifestSession): ReportedSum {
  return reportedSum(s.sidechains.filter((c) => c.reported));
}
