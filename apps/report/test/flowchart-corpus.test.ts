import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { buildSession, type Session } from '@cctrail/core';
import { discover, sessionSource } from '@cctrail/core/node';
import { describe, expect, it } from 'vitest';
import { type MermaidChart, sessionMermaid } from '../src/views/flowchart/mermaid.js';
import { sessionStory } from '../src/views/flowchart/mermaid-story.js';
import { mainLeaves } from './helpers/lanes.js';
import { tempFolder } from './helpers/temp.js';

/**
 * The flowchart's promises over every session of the shared corpus and of the benchmark's generated archive
 * (550 sessions): every entry is drawn (counted in a node, or in a part of the overview), no node is a textless dead
 * end, every chart stays under its node limit, the turns form one lane (no false lanes from alternative roots:
 * the chart's leaves are its forks, its sub-agents and the conversation's end), and the Mermaid text keeps every
 * label inside its quotes.
 */

const CORPUS = resolve(import.meta.dirname, '../../../../shared/corpus/claude-projects');
const tmp = tempFolder('cctrail-flowchart-');

/** Checks each session below `root` as it is built (an archive of hundreds need not be held at once). */
async function checkSessionsIn(root: string): Promise<number> {
  const found = await discover([root]);
  let n = 0;
  for (const p of found.projects)
    for (const s of p.sessions) {
      checkSession(await buildSession(await sessionSource(s, (f) => relative(root, f))));
      n++;
    }
  return n;
}

/** A textless node says nothing but a count (or nothing at all). */
function textless(label: string): boolean {
  return label.replace(/[\d.,k ]+(entry|entries)\b/g, '').replace(/[\s·⚠]+/g, '') === '';
}

function checkChart(chart: MermaidChart, limit: number): void {
  expect(chart.nodes.length).toBeLessThanOrEqual(limit);
  const parents = new Set<string>();
  for (const line of chart.text.split('\n')) {
    const edge = /^\s+(\w+) (?:-->|-\.->|-\.-|-\.->\|continues after a gap\|) (\w+)$/.exec(line);
    if (edge) parents.add(edge[1]!);
    // one quoted label per node line, nothing Mermaid could read as syntax inside it
    if (/^\s+\w+(\["|\{\{"|\[\[")/.test(line)) expect(line.split('"')).toHaveLength(3);
    expect(line).not.toMatch(/%%|[{]init|^\s*click\b/);
  }
  for (const n of chart.nodes) {
    expect(n.entries, n.label).toBeGreaterThan(0);
    if (!parents.has(n.id)) expect(textless(n.label), `dead end without text: ${n.label}`).toBe(false);
    expect(n.label).not.toMatch(/\bto \?/);
  }
}

function checkSession(s: Session): void {
  const story = sessionStory(s);
  if (story.some((n) => n.kind === 'active')) expect(mainLeaves(story), `${s.id}: lanes of turns`).toBe(1);
  const g = sessionMermaid(s);
  const limit = 60;
  checkChart(g, Math.max(limit, g.sections.length));
  const drawn = g.sections.length > 0 ? g.sections.reduce((a, p) => a + p.entries, 0) : g.entries;
  expect(
    g.nodes.reduce((a, n) => a + n.entries, 0),
    `${s.id}: entries drawn`,
  ).toBe(s.entries.length);
  expect(drawn, `${s.id}: entries in the parts`).toBe(s.entries.length);
  const size = Math.max(limit, Math.ceil((4 * g.nodes.length) / limit));
  for (const part of g.sections) checkChart(part, Math.max(size, g.nodes.length));
}

describe('the flowchart over real and generated archives', () => {
  it.runIf(existsSync(CORPUS))('draws every session of the shared corpus', async () => {
    expect(await checkSessionsIn(CORPUS)).toBeGreaterThan(10);
  });

  it("draws every session of the benchmark's archive (550 sessions, 700 MB)", async () => {
    // @ts-expect-error: the benchmark's generator is plain JavaScript
    const { generateCorpus } = await import('../../../scripts/bench/generate.mjs');
    const dir = join(tmp, 'generated');
    // As `generate.mjs --sessions 550 --total-mb 700` writes it (seed 1), checked session by session.
    await generateCorpus(dir, { sessions: 550, totalMb: 700 });
    expect(await checkSessionsIn(dir)).toBeGreaterThanOrEqual(550);
  }, 600_000);
});
