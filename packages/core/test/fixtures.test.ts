/**
 * Golden scenarios: every `fixtures/<scenario>/` is read as a user's projects folder. Each session is checked
 * against the facts written by hand in `facts.json`, and its whole analysis is compared with `expected.json`
 * (`vitest -u` rewrites those; review the diff).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forkCounts, isRealFork } from '../src/analyses/fork-kinds.js';
import { usageAcross } from '../src/archive/duplicates.js';
import { sessionDuplicates } from '../src/archive/index.js';
import { buildSession, forkClass, type Session } from '../src/index.js';
import { discover, sessionSource } from '../src/node/index.js';
import { accounted } from './helpers.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const scenarios = readdirSync(fixtures, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** Informal diagnostic names used in facts.json → catalogue codes. */
const CODE: Record<string, string> = {
  'glued-line': 'glued-records',
  'unknown-type': 'unknown-type',
  'missing-agent-file': 'missing-agent-file',
  'parent-cycle': 'parent-cycle',
  'self-parent': 'self-parent',
  'unmatched-sidechain': 'sidechain-unmatched',
  'missing-tool-result': 'tool-result-missing',
  'incomplete-sidechain': 'sidechain-incomplete',
  'dangling-summary-leaf': 'summary-leaf-missing',
  'result-without-call': 'tool-call-missing',
  'tool-result-without-call': 'tool-call-missing',
};

async function load(scenario: string): Promise<Session[]> {
  const dir = join(fixtures, scenario);
  const found = await discover([dir]);
  const sessions: Session[] = [];
  for (const project of found.projects) {
    for (const s of project.sessions)
      sessions.push(await buildSession(await sessionSource(s, (p) => relative(dir, p))));
  }
  return sessions;
}

/** The analysis in a compact, reviewable form: one line per entry and diagnostic. */
function golden(sessions: Session[]) {
  const duplicates = sessionDuplicates(sessions);
  return sessions.map((s, index) => ({
    id: s.id,
    title: s.title,
    duplicateOf: duplicates[index],
    accounting: s.accounting,
    files: s.files.map((f) => `${f.role} ${f.path} ${f.lines}`),
    leaf: s.leaf,
    entries: s.entries.map(
      (e) =>
        `${e.source.file}:${e.source.line} ${e.kind}/${e.actor} ${e.uuid} <- ${e.parent ?? '∅'}` +
        `${e.active ? '' : ` abandoned@${e.branchPoint}`}${e.sidechain ? ` in ${e.sidechain}` : ''} epoch ${e.epoch}`,
    ),
    branchPoints: s.branchPoints,
    branches: s.branches,
    sidechains: s.sidechains.map(({ usage, ...rest }) => ({ ...rest, outputTokens: usage.outputTokens })),
    compactions: s.compactions,
    epochs: s.epochs.map(({ usage, ...rest }) => ({ ...rest, outputTokens: usage.outputTokens })),
    tools: s.tools.map(
      (t) =>
        `${t.id} ${t.name} ${t.status} ${t.callUuid ?? '∅'} → ${t.resultUuid ?? '∅'}${t.sidechain ? ` in ${t.sidechain}` : ''}`,
    ),
    usage: s.usage.total,
    diagnostics: s.diagnostics.map((d) => `${d.file ?? '-'}:${d.line ?? '-'} ${d.severity} ${d.code}`),
  }));
}

function physicalPath(s: Session): string[] {
  const by = new Map(s.entries.map((e) => [e.uuid, e]));
  const path: string[] = [];
  for (let at = s.leaf ? by.get(s.leaf) : undefined; at; at = at.parent ? by.get(at.parent) : undefined)
    path.push(at.uuid);
  return path.reverse();
}

describe.each(scenarios)('fixture %s', (scenario) => {
  it('matches its golden analysis', async () => {
    const sessions = await load(scenario);
    await expect(`${JSON.stringify(golden(sessions), null, 2)}\n`).toMatchFileSnapshot(
      join(fixtures, scenario, 'expected.json'),
    );
  });

  it('finds the facts written by hand', async () => {
    const facts = JSON.parse(readFileSync(join(fixtures, scenario, 'facts.json'), 'utf8'));
    const sessions = await load(scenario);
    const duplicates = sessionDuplicates(sessions);
    for (const [id, want] of Object.entries<Record<string, any>>(facts.sessions ?? {})) {
      const s = sessions.find((x) => x.id === id);
      expect(s, `session ${id}`).toBeDefined();
      if (!s) continue;
      expect(accounted(s)).toBe(true);
      const has = (key: string) => want[key] !== undefined;
      const a = s.accounting;
      if (has('lines')) expect(a.lines, 'lines').toBe(want.lines);
      if (has('entries')) expect(a.entries, 'entries').toBe(want.entries);
      if (has('metadata')) expect(a.metadata, 'metadata').toBe(want.metadata);
      if (has('invalid')) expect(a.invalid, 'invalid lines').toBe(want.invalid);
      if (has('orphans')) expect([...s.orphans].sort(), 'orphans').toEqual([...want.orphans].sort());
      if (has('roots')) {
        // Written roots must all be listed; facts may or may not list orphans among roots.
        const all = new Set([...s.roots, ...s.orphans]);
        for (const r of want.roots) expect(all.has(r), `root ${r}`).toBe(true);
        for (const r of s.roots)
          expect(
            want.roots.includes(r) || (want.cycleMembers ?? []).includes(r),
            `unexpected root ${r}`,
          ).toBe(true);
      }
      if (has('forks'))
        expect(s.branchPoints.filter((b) => isRealFork(b.kind)).length, 'forks').toBe(want.forks);
      if (has('forkKinds')) expect(forkCounts(s.branchPoints), 'fork kinds').toEqual(want.forkKinds);
      if (has('artefactBranchPoints')) {
        expect(
          s.branchPoints.filter((b) => forkClass(b.kind) === 'artefact').length,
          'artefact branch points',
        ).toBe(want.artefactBranchPoints);
      }
      if (has('abandonedEntries'))
        expect(s.entries.filter((e) => !e.active).length, 'abandoned').toBe(want.abandonedEntries);
      if (has('leaf')) expect(s.leaf, 'leaf').toBe(want.leaf);
      if (has('activePath')) expect(physicalPath(s), 'active path').toEqual(want.activePath);
      if (has('compactions')) {
        const full = s.compactions.filter((c) => c.kind === 'full');
        expect(
          {
            full: full.length,
            auto: full.filter((c) => c.trigger === 'auto').length,
            manual: full.filter((c) => c.trigger === 'manual').length,
            micro: s.compactions.length - full.length,
          },
          'compactions',
        ).toEqual(want.compactions);
      }
      if (has('epochs')) expect(s.epochs.length, 'epochs').toBe(want.epochs);
      if (has('sidechains')) {
        // facts.json may name the link `match` and the spawn by entry (`spawnUuid`) when the call has no id.
        const view = (x: Record<string, any>, w: Record<string, any>) => {
          const out: Record<string, unknown> = {};
          for (const k of ['agentId', 'agentType', 'role', 'depth', 'storage', 'entries', 'rootUuid'])
            if (k in w) out[k] = x[k];
          if ('match' in w) out.match = x.link === 'none' ? null : x.link;
          if ('spawnUuid' in w) out.spawnUuid = x.spawn?.entryUuid ?? null;
          else if ('spawnToolUseId' in w) out.spawnToolUseId = x.spawn?.toolUseId ?? null;
          return out;
        };
        const wanted: Record<string, any>[] = want.sidechains;
        expect(s.sidechains.length, 'sidechain count').toBe(wanted.length);
        const remaining = [...s.sidechains];
        for (const w of wanted) {
          const clean = Object.fromEntries(
            Object.entries(w).filter(([k]) => k !== 'spawnToolUseId' || !('spawnUuid' in w)),
          );
          const at = remaining.findIndex(
            (x) =>
              JSON.stringify(view(x, w)) === JSON.stringify(view(clean, w)) || isEqual(view(x, w), clean),
          );
          expect(
            at,
            `sidechain ${JSON.stringify(w)} among ${JSON.stringify(remaining.map((x) => view(x, w)))}`,
          ).toBeGreaterThanOrEqual(0);
          remaining.splice(at, 1);
        }
      }
      if (has('tools')) {
        const t = s.tools;
        expect(
          {
            calls: t.filter((x) => x.callUuid !== null).length,
            paired: t.filter((x) => x.callUuid !== null && x.resultUuid !== null).length,
            errors: t.filter((x) => x.status === 'error').length,
            missingResults: t.filter((x) => x.status === 'missing-result').length,
            resultsWithoutCall: t.filter((x) => x.status === 'result-without-call').length,
          },
          'tools',
        ).toEqual(want.tools);
      }
      if (has('usage')) {
        const { inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens, responses } =
          s.usage.total;
        expect(
          { inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens, responses },
          'usage',
        ).toEqual(want.usage);
      }
      if (has('diagnostics')) {
        const codes = new Set<string>(s.diagnostics.map((d) => d.code));
        for (const name of want.diagnostics as string[]) {
          // A blank line is accounted for, not diagnosed.
          if (name === 'blank-line') expect(s.accounting.blank, 'blank lines').toBeGreaterThan(0);
          else expect(codes.has(CODE[name] ?? name), `diagnostic ${name}`).toBe(true);
        }
      }
      if (has('duplicateOf')) expect(duplicates[sessions.indexOf(s)], 'duplicateOf').toBe(want.duplicateOf);
    }
    if (facts.corpusUsage) expect(usageAcross(sessions).outputTokens).toBe(facts.corpusUsage.outputTokens);
  });
});

function isEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}
