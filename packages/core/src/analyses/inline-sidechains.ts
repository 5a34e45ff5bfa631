/** 1.0.x inline sidechains (`isSidechain` lines in the main file), matched to their Task call. */

import type { Diagnostic } from '../diagnostics.js';
import { diagnostic } from '../diagnostics.js';
import type { Dag } from '../graph/dag.js';
import type { ToolIndex } from '../graph/tool-pairing.js';
import type { Sidechain, SidechainLink } from '../model/session.js';
import { firstText } from '../normalize/prompt-text.js';
import type { FileSpan } from '../read/session-reader.js';
import {
  asRecord,
  attachSpawn,
  newSidechain,
  SPAWN_TOOLS,
  spawnCallOf,
  stringField,
} from './sidechain-spawns.js';

/** Inline sidechains are matched to a Task call started at most this long before them. */
const TIMESTAMP_WINDOW_MS = 2000;

/** 1.0.x inline sidechains, and the seeds' sidechains that hang from their Task message. */
export function inlineSidechains(
  dag: Dag,
  files: readonly FileSpan[],
  tools: ToolIndex,
  linkedCalls: Set<string>,
  diagnostics: Diagnostic[],
): Sidechain[] {
  const { entries, parent, children } = dag;
  const main = files.find((f) => f.role === 'main');
  if (!main) return [];
  const level = (i: number) => {
    const value = entries[i]!.extra.nestingLevel;
    return typeof value === 'number' ? value : 1;
  };

  // Unclaimed Task calls of the main file, in file order, for prompt and time matching.
  const candidates: { id: string; at: number; prompt: string; time: number }[] = [];
  for (const [id, at] of tools.callEntry) {
    if (at < main.first || at >= main.end || linkedCalls.has(id)) continue;
    const block = entries[at]!.content.find((b) => b.type === 'tool_use' && b.id === id);
    if (block?.type !== 'tool_use' || !SPAWN_TOOLS.has(block.name)) continue;
    const prompt = stringField(asRecord(block.input).prompt) ?? '';
    candidates.push({ id, at, prompt: prompt.trim(), time: Date.parse(entries[at]!.timestamp ?? '') });
  }
  candidates.sort((a, b) => a.at - b.at);

  const out: Sidechain[] = [];
  for (let i = main.first; i < main.end; i++) {
    const entry = entries[i]!;
    if (!entry.isSidechain) continue;
    const p = parent[i]!;
    const isRoot = p === -1 || !entries[p]!.isSidechain || level(i) !== level(p);
    if (!isRoot) continue;

    const sidechain = newSidechain(
      `inline-${entry.uuid}`,
      stringField(entry.extra.agentId),
      'inline',
      main.path,
    );
    sidechain.rootUuid = entry.uuid;
    // Members: the root and every sidechain descendant at the same nesting level.
    const stack = [i];
    while (stack.length > 0) {
      const at = stack.pop()!;
      entries[at]!.sidechain = sidechain.id;
      for (const child of children[at]!) {
        if (entries[child]!.isSidechain && level(child) === level(i)) stack.push(child);
      }
    }

    let spawn: { id: string; link: SidechainLink } | null = null;
    if (p >= 0) {
      const id = spawnCallOf(entries[p]!);
      if (id && !linkedCalls.has(id)) spawn = { id, link: 'parent-uuid' };
      else if (!id) {
        // Seeds: a sidechain hangs from its spawning message; with no Task call there, the agent is unknown.
        sidechain.spawn = { toolUseId: null, entryUuid: entries[p]!.uuid };
        sidechain.link = 'parent-uuid';
        sidechain.parentSidechain = entries[p]!.sidechain;
        entry.parent = entries[p]!.uuid;
      }
    }
    if (!spawn) {
      const text = (firstText(entry.content) ?? '').trim();
      const byPrompt = text ? candidates.find((c) => !linkedCalls.has(c.id) && c.prompt === text) : undefined;
      if (byPrompt) spawn = { id: byPrompt.id, link: 'prompt' };
    }
    if (!spawn) {
      const time = Date.parse(entry.timestamp ?? '');
      let best: (typeof candidates)[number] | undefined;
      for (const c of candidates) {
        if (linkedCalls.has(c.id) || !Number.isFinite(time) || !Number.isFinite(c.time)) continue;
        const gap = time - c.time;
        if (gap >= 0 && gap <= TIMESTAMP_WINDOW_MS && (!best || gap < time - best.time)) best = c;
      }
      if (best) spawn = { id: best.id, link: 'timestamp' };
    }
    if (spawn) {
      linkedCalls.add(spawn.id);
      attachSpawn(sidechain, spawn.id, spawn.link, tools, entries, i);
    } else if (sidechain.spawn === null) {
      sidechain.role = 'orphan';
      diagnostics.push(
        diagnostic('sidechain-unmatched', entry.source.file, entry.source.line, { uuid: entry.uuid }),
      );
    }
    if (level(i) > 1) sidechain.depth = level(i);
    out.push(sidechain);
  }
  return out;
}
