/**
 * Sub-agents without their transcript in the report (`packages/core/test/fixtures/spawn-reported`): the run whose
 * transcript is missing shows what its spawn's result reports (tokens, duration, tool uses, cost) on the session,
 * its own page, its type's page and the agents overview, with the prompt and the answer of its spawn; the run
 * whose transcript is there is counted from it only; a duplicate of the session adds no run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { totalTokens } from '@cctrail/core';
import { priceSession, reportedCost } from '@cctrail/core/archive';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import { writeArchive } from './helpers/demo.js';
import { CORE_FIXTURES, type FixtureProject, scenarioProjects } from './helpers/fixtures.js';
import { tempFolder } from './helpers/temp.js';

const tmp = tempFolder('cctrail-spawn-reported-');
const outDir = join(tmp, 'site');
let projects: FixtureProject[] = [];

const read = (...parts: string[]) => readFileSync(join(outDir, ...parts), 'utf8');
/** Text of the HTML without tags, spaces collapsed. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

beforeAll(async () => {
  const [project] = await scenarioProjects('spawn-reported', CORE_FIXTURES);
  const original = project!.sessions[0]!;
  const copy = (await scenarioProjects('spawn-reported', CORE_FIXTURES))[0]!.sessions[0]!;
  copy.id = `${original.id.slice(0, 8)}-copy`;
  copy.duplicateOf = original.id;
  for (const s of [original, copy]) priceSession(s);
  projects = [{ ...project!, sessions: [original, copy] }];
  writeArchive(join(tmp, 'data'), projects);
  await buildReport({ dataDir: join(tmp, 'data'), outDir, base: '/', title: 'spawn reported' });
}, 240_000);

function figures() {
  const s = projects[0]!.sessions[0]!;
  const gone = s.sidechains.find((c) => c.agentType === 'general-purpose')!;
  const here = s.sidechains.find((c) => c.agentType === 'Explore')!;
  return { s, gone, here, usd: reportedCost(gone.reported!, gone.startedAt).usd };
}

describe('a sub-agent reported by its spawn', () => {
  it('shows its reported figures on the session page, the other run from its transcript only', () => {
    const { s, here, usd } = figures();
    const project = readdirSync(join(outDir, 's'))[0]!;
    const page = text(read('s', project, s.id, 'index.html'));
    expect(usd).toBeGreaterThan(0);
    expect(page).toMatch(
      /general-purpose parallel 1 Document the parser \S+ \S+ — 1 1 min 35 s ≥ 20k ≥ \$0\.\d+ transcript missing/,
    );
    expect(page).toContain(`≥ $${usd.toFixed(2)}`);
    // the run whose transcript is there: its transcript's tokens, not the 5,150 its result reports
    expect(totalTokens(here.usage)).toBe(8198);
    expect(page).toMatch(/Explore parallel 1 Find the bug \S+ \S+ 4 1 11\.0 s 8,198 \$0\.\d+ completed/);
    expect(page).toMatch(
      /One sub-agent without a transcript: ≥ \$0\.\d+, as reported by the spawn result .* counted once in the figures above/,
    );
    // counted once in the session's cost: its transcripts' responses (the Explore run's among them), plus the report
    const total = s.cost!.total.usd + usd;
    expect(page).toContain(`Cost ≥ $${total.toFixed(2)} `);
    // and its tokens: the transcripts' and the 20,400 its spawn reports
    expect(page).toContain(`Tokens ≥ ${Math.round((totalTokens(s.usage.total) + 20_400) / 1000)}k `);
    // and in the index's total, once although the session has a duplicate copy
    const index = read('index.html');
    expect(text(index)).toMatch(/Cost ≥ \$[\d.]+ /);
    expect(index).toContain(
      `and ≥ $${usd.toFixed(2)} reported by the spawn result for 1 sub-agent without a transcript`,
    );
  });

  it('shows its figures, cost, prompt and answer on its own page', () => {
    const { s } = figures();
    const project = readdirSync(join(outDir, 's'))[0]!;
    const agents = join('s', project, s.id, 'agent');
    const gone = readdirSync(join(outDir, agents)).find((d) =>
      read(agents, d, 'index.html').includes('general-purpose'),
    )!;
    const page = text(read(agents, gone, 'index.html'));
    expect(page).toContain('reported by the spawn result');
    expect(page).toMatch(/Entries — Depth 1 Duration 1 min 35 s Tokens ≥ 20k Tool calls 7 Cost ≥ \$0\.\d+/);
    expect(page).toContain('Prompt sent by the spawning call Write docs/parser.md describing parser.py.');
    expect(page).toContain(
      "Answer returned in the call's result Docs written to docs/parser.md (3 sections).",
    );
    expect(page).not.toContain('agentId:');
  });

  it('counts it once on the agents overview and its type page, apart from the entry counts', () => {
    const overview = text(read('agents', 'index.html'));
    expect(overview).toMatch(/general-purpose 1 1 without transcript 1 0 /);
    expect(read('agents', 'index.html')).toContain('title="1 run whose transcript is missing: not in');
    expect(overview).toMatch(/Explore 1 1 4 /);
    expect(overview).toMatch(
      /≥ 20k incl\. ≥ 20k reported by the spawn result ≥ \$0\.\d+ incl\. ≥ \$0\.\d+ reported/,
    );
    const type = text(read('agents', 'general-purpose', 'index.html'));
    expect(type).toContain('1 run in 1 session');
    expect(type).toMatch(
      /costing ≥ (\$0\.\d+) ?, including ≥ \1 for runs without a transcript, as reported by the spawn result/,
    );
    expect(type.match(/Document the parser/g)).toHaveLength(1);
  });
});
