/**
 * Cost per epoch, main thread and sub-agents apart, on the `agent-progress` fixture: sub-agents spawned in its
 * two epochs (an Explore run and a run whose transcript is missing before the compaction, a general-purpose run
 * after it), and the `agent-acompact-*` helper.
 */
import { join } from 'node:path';
import { priceSession, reportedCost } from '@cctrail/core/archive';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionCostView } from '../src/views/figures/cost-view.js';
import { epochCosts } from '../src/views/figures/epoch-cost.js';
import type { ManifestSession } from '../src/views/site/site-model.js';
import { writeArchive } from './helpers/demo.js';
import { type FixtureProject, scenarioProjects } from './helpers/fixtures.js';
import { siteOf } from './helpers/site.js';
import { tempFolder } from './helpers/temp.js';

const tmp = tempFolder('cctrail-epoch-cost-');
let project: FixtureProject;
let session: ManifestSession;

beforeAll(async () => {
  [project] = (await scenarioProjects('agent-progress')) as [FixtureProject];
  for (const s of project.sessions) priceSession(s);
  const dir = writeArchive(join(tmp, 'data'), [project]);
  session = (await siteOf(dir, join(tmp, 'cache'))).projects[0]!.sessions[0]!;
}, 120_000);

/** What the spawn of the run without a transcript reports it cost. */
function reportedUsd(): number {
  const gone = project.sessions[0]!.sidechains.find((c) => c.reported)!;
  return reportedCost(gone.reported!, gone.startedAt).usd;
}

/** Dollars rounded to the 1e-9, as core rounds them. */
const usd = (n: number) => Math.round(n * 1e9) / 1e9;

describe('cost per epoch', () => {
  it("splits each epoch between the main thread and the sub-agents spawned in it, from the responses' own figures", () => {
    const s = project.sessions[0]!;
    const cost = s.cost!;
    const epochs = epochCosts(session);
    expect(epochs.map((e) => e.epoch)).toEqual([0, 1]);
    // the main thread of each epoch: its own responses, counted from the session's responses
    for (const e of epochs) {
      const main = s.responses
        .filter((r) => r.sidechain === null && r.epoch === e.epoch)
        .reduce((a, r) => a + (r.cost ?? 0), 0);
      expect(e.main.usd, `epoch ${e.epoch}`).toBeCloseTo(main, 9);
    }
    expect(usd(epochs.reduce((a, e) => a + e.main.usd, 0))).toBeCloseTo(cost.main.usd, 9);
    // sub-agents: two runs with a transcript and the helper in epoch 0, one in epoch 1, each where it was spawned
    const gone = s.sidechains.find((c) => c.reported)!;
    const reported = reportedCost(gone.reported!, gone.startedAt).usd;
    const ran = (epoch: number) =>
      s.responses
        .filter((r) => r.sidechain !== null && r.epoch === epoch)
        .reduce((a, r) => a + (r.cost ?? 0), 0);
    expect(ran(1)).toBeGreaterThan(0);
    expect(epochs[0]).toMatchObject({ runs: 3, reported: 1 });
    expect(epochs[0]!.subAgents.usd).toBeCloseTo(ran(0) + reported, 9);
    expect(epochs[1]).toMatchObject({ runs: 1, reported: 0 });
    expect(epochs[1]!.subAgents.usd).toBeCloseTo(ran(1), 9);
    // nothing counted twice: the transcripts' responses once, the run without one once, at what its spawn reports
    const all = epochs.reduce((a, e) => a + e.main.usd + e.subAgents.usd, 0);
    expect(all).toBeCloseTo(cost.total.usd + reported, 9);
  });

  it('shows the split on the session, the run without a transcript marked as a lower bound and counted once', () => {
    const view = sessionCostView(session)!;
    expect(view.split).toBe(true);
    expect(view.byEpoch.map((r) => [r.label, r.main.startsWith('$'), r.subAgents.slice(0, 2)])).toEqual([
      ['Epoch 1', true, '≥ '],
      ['Epoch 2', true, '$0'],
    ]);
    // counted once: the transcripts' responses and the report, the lower bound marked in the label
    expect(view.total.label).toBe('Cost ≥');
    expect(view.total.value).toBe(`$${(project.sessions[0]!.cost!.total.usd + reportedUsd()).toFixed(2)}`);
    expect(view.total.title).toMatch(
      /^Includes ≥ \$0\.\d+ reported by the spawn result for 1 sub-agent without a transcript/,
    );
    expect(view.reported).toMatch(
      /^One sub-agent without a transcript: ≥ \$0\.\d+, as reported by the spawn result/,
    );
  });
});
