import { type RunOutcome, runOutcome } from '../agents/agent-status.js';
import { tokensAfterCompactions } from '../charts/compaction-after.js';
import type { Compaction, ContentBlock, Entry, Session, Sidechain, ToolCall } from '../model.js';

/**
 * What a transcript needs while it renders its entries (which entries it shows comes from core's queries:
 * `activeEntries`, `sidechainEntries`, `branchEntries`): tool calls paired with their results, sidechains by
 * spawning call, branches by branch point.
 */

type ToolResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;

/** Lookups a transcript needs while rendering a list of entries. */
export interface TranscriptContext {
  /** Tool results by tool-use id, for results inside the shown entries. */
  results: Map<string, { entry: Entry; block: ToolResultBlock }>;
  /** Tool-use ids whose call is inside the shown entries. */
  calls: Set<string>;
  tools: Map<string, ToolCall>;
  /** Sidechains by the tool-use id that spawned them. */
  sidechainBySpawn: Map<string, Sidechain>;
  /** Indices into `Session.branches` by branch point uuid. */
  branchesByPoint: Map<string, number[]>;
  compactions: Map<string, Compaction>;
  /** Tokens after each compaction that records none, from the next response (`tokensAfterCompactions`). */
  tokensAfter: Map<string, number>;
  /** How each sidechain that did not simply run ended (failed spawn, missing transcript), by id. */
  outcomes: Map<string, { outcome: RunOutcome; error: string | null }>;
}

/** The lookups of a session that every transcript of it shares. */
type SessionLookups = Omit<TranscriptContext, 'results' | 'calls'>;

/** One set of session lookups per session: a session with thousands of agent pages builds them once. */
const shared = new WeakMap<Session, SessionLookups>();

function sessionLookups(session: Session): SessionLookups {
  let found = shared.get(session);
  if (found) return found;
  const branchesByPoint = new Map<string, number[]>();
  session.branches.forEach((b, i) => {
    const list = branchesByPoint.get(b.branchPoint) ?? [];
    list.push(i);
    branchesByPoint.set(b.branchPoint, list);
  });
  const outcomes: TranscriptContext['outcomes'] = new Map();
  for (const sc of session.sidechains) {
    const o = runOutcome(session, sc);
    if (o.outcome !== 'ran') outcomes.set(sc.id, o);
  }
  found = {
    tools: new Map(session.tools.map((t) => [t.id, t])),
    sidechainBySpawn: new Map(
      session.sidechains.flatMap((s) => (s.spawn?.toolUseId ? [[s.spawn.toolUseId, s] as const] : [])),
    ),
    branchesByPoint,
    compactions: new Map(session.compactions.flatMap((c) => (c.uuid ? [[c.uuid, c] as const] : []))),
    tokensAfter: tokensAfterCompactions(session),
    outcomes,
  };
  shared.set(session, found);
  return found;
}

/** Builds the lookups for rendering `entries` of `session`. */
export function transcriptContext(session: Session, entries: readonly Entry[]): TranscriptContext {
  const results = new Map<string, { entry: Entry; block: ToolResultBlock }>();
  const calls = new Set<string>();
  for (const entry of entries) {
    for (const block of entry.content) {
      if (block.type === 'tool_result') results.set(block.toolUseId, { entry, block });
      else if (block.type === 'tool_use') calls.add(block.id);
    }
  }
  return { ...sessionLookups(session), results, calls };
}

/**
 * True when every block of a tool-result entry is shown with its call elsewhere in the transcript, so the
 * entry itself only needs an anchor.
 */
export function isFoldedResult(entry: Entry, ctx: TranscriptContext): boolean {
  if (entry.content.length === 0) return false;
  return entry.content.every((b) => b.type === 'tool_result' && ctx.calls.has(b.toolUseId));
}

/** A short human label of who speaks in an entry. */
export function actorLabel(entry: Entry): string {
  switch (entry.actor) {
    case 'human':
      return 'You';
    case 'claude':
      return 'Claude';
    case 'subagent':
      return 'Sub-agent';
    case 'claude-as-user':
      return 'Claude → agent';
    case 'tool':
      return 'Tool';
    default:
      return 'System';
  }
}

/** A one-line summary of a tool call's input: the file, command, pattern or description it is about. */
export function toolSummary(name: string, input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const i = input as Record<string, unknown>;
  for (const key of [
    'file_path',
    'notebook_path',
    'command',
    'pattern',
    'url',
    'query',
    'description',
    'path',
    'prompt',
  ]) {
    const v = i[key];
    if (typeof v === 'string' && v !== '') {
      const line = v.split('\n')[0] ?? '';
      return line.length > 160 ? `${line.slice(0, 160)}…` : line;
    }
  }
  return name === 'TodoWrite' && Array.isArray(i.todos) ? `${i.todos.length} todos` : '';
}
