/**
 * Builds a `Session` from its files, wiring the stages in order: read (every line accounted for) → normalize
 * (each entry record, whole) → graph (DAG, tool pairing, usage) → analyses (sidechains, compactions, branches,
 * titles). Nothing else happens here.
 */

import { settleActivePath } from './analyses/active-path.js';
import { attributeToolCalls, attributeUsage } from './analyses/attribution.js';
import { findBranches } from './analyses/branches.js';
import { findCompactions } from './analyses/compaction.js';
import { distinct, mostCommon, timeSpan } from './analyses/facts.js';
import { markHelperLinks } from './analyses/helper-links.js';
import { recordTypes } from './analyses/record-counts.js';
import { linkBackgroundAnswers } from './analyses/sidechain-background.js';
import { attachSpawnReports } from './analyses/sidechain-reported.js';
import { workflowRuns, workflowSpawns } from './analyses/sidechain-workflows.js';
import { findSidechains } from './analyses/sidechains.js';
import { checkSummaryLeaves } from './analyses/summary-leaves.js';
import { findFirstPrompt, storedTitle } from './analyses/title.js';
import { linkDag } from './graph/dag.js';
import { pairTools } from './graph/tool-pairing.js';
import { breakdown, groupResponses } from './graph/usage.js';
import { normalizeLeanEntry } from './lean/structure-only.js';
import { SCHEMA_VERSION, type Session } from './model/session.js';
import { normalizeEntry } from './normalize/entries.js';
import { readSession } from './read/session-reader.js';
import { readWorkflowRuns } from './read/workflow-runs.js';
import type { BuildOptions, SessionSource } from './source.js';

/**
 * Reads a session's files and builds its model. Never throws on bad input: every problem becomes a
 * diagnostic, and every input line is accounted for (`Session.accounting`).
 *
 * @param source The main transcript and its agent files.
 * @param options `content: false` keeps structure only, for low memory on huge sessions; `statsOnly` computes only
 *   what statistics read.
 * @example const session = await buildSession(await sessionSource(found)); // sessionSource: `@cctrail/core/node`
 */
export async function buildSession(source: SessionSource, options: BuildOptions = {}): Promise<Session> {
  const lean = options.content === false;
  const full = options.statsOnly !== true;
  const read = await readSession(source, { toEntry: lean ? normalizeLeanEntry : normalizeEntry, lean });
  const { entries, diagnostics, metadata, seedEvents, mainEnd } = read;

  const cuts = seedEvents
    .filter((e) => e.phase === 'conversation_compacted' && e.before <= mainEnd)
    .map((e) => e.before);
  const dag = linkDag(entries, read.fileOf, diagnostics, cuts, read.uuids);
  const tools = pairTools(entries, diagnostics);
  const runs = readWorkflowRuns(source.workflowFiles ?? []);
  const runSpawns = workflowSpawns(entries, tools, runs);
  const sidechains = findSidechains(dag, read.spans, read.metas, tools, diagnostics, runSpawns);
  linkBackgroundAnswers(sidechains, entries, metadata, tools);
  attachSpawnReports(sidechains, entries, tools);
  markHelperLinks(sidechains, diagnostics);
  if (full) attributeToolCalls(tools.calls, dag);
  const { compactions, epochs } = findCompactions(dag, seedEvents, mainEnd, diagnostics);
  const { branchPoints, branches, leaf } = findBranches(dag, compactions, sidechains, diagnostics);
  settleActivePath(dag, branchPoints, branches, leaf);
  const responses = groupResponses(entries);
  const usage = breakdown(responses);
  attributeUsage(usage, epochs, sidechains);
  checkSummaryLeaves(metadata, dag, diagnostics);

  const workflows = workflowRuns(runs, runSpawns, sidechains, entries, tools);
  for (const file of source.workflowFiles ?? [])
    read.files.push({ path: file.path, role: 'workflow', lines: 0, bytes: file.text.length });
  const firstPrompt = full ? findFirstPrompt(entries, options.beforeCut) : null;
  const times = timeSpan(entries);
  return {
    schemaVersion: SCHEMA_VERSION,
    id: source.id,
    sessionIds: full ? distinct(entries.map((e) => e.sessionId)) : [],
    project: {
      slug: source.project?.slug ?? null,
      cwd: source.project?.cwd ?? (full ? mostCommon(entries.map((e) => e.cwd)) : null),
    },
    files: read.files,
    title: full ? storedTitle(firstPrompt, metadata, (uuid) => dag.index.has(uuid), options.beforeCut) : null,
    firstPrompt,
    startedAt: times.start,
    endedAt: times.end,
    versions: distinct(entries.map((e) => e.version)),
    models: distinct(entries.map((e) => e.message?.model ?? null)).filter((m) => m !== '<synthetic>'),
    entries,
    metadata,
    roots: dag.roots.map((i) => entries[i]!.uuid),
    orphans: dag.orphans.map((i) => entries[i]!.uuid),
    leaf,
    branchPoints,
    branches,
    sidechains,
    compactions,
    epochs,
    tools: tools.calls,
    responses,
    usage,
    diagnostics,
    accounting: read.accounting,
    ...(workflows.length > 0 ? { workflows } : {}),
    ...(full ? { recordTypes: recordTypes(entries, metadata) } : {}),
  };
}
