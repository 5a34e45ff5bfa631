import type { Session, Sidechain, ToolCall } from '../model.js';

/**
 * How a sub-agent run ended, as the report tells it: a spawn that failed (its Task/Agent call returned an
 * error, such as "Agent type … not found", and no agent ever ran) is a failure, not a run; a run whose
 * transcript is not in the archive is shown with a notice. Derived from what the session model holds today
 * (a failed spawn is a `missing` sidechain without an agent id whose call ended in an error).
 */

const callsById = new WeakMap<Session, Map<string, ToolCall>>();

/** A tool call of a session by id (the map is built once per session). */
function callOf(session: Session, id: string): ToolCall | undefined {
  let calls = callsById.get(session);
  if (!calls) {
    calls = new Map(session.tools.map((t) => [t.id, t]));
    callsById.set(session, calls);
  }
  return calls.get(id);
}

/** How a run is shown. */
export type RunOutcome = 'ran' | 'failed-spawn' | 'missing-transcript';

/** The outcome of a sidechain of a loaded session, with the spawn's error text for a failed spawn. */
export function runOutcome(session: Session, sc: Sidechain): { outcome: RunOutcome; error: string | null } {
  const status: string = sc.status;
  if (status === 'failed') return { outcome: 'failed-spawn', error: spawnError(session, sc) };
  if (status !== 'missing' || sc.entries > 0) return { outcome: 'ran', error: null };
  const callId = sc.spawn?.toolUseId;
  const call = callId ? callOf(session, callId) : undefined;
  if (sc.agentId === null && call?.status === 'error')
    return { outcome: 'failed-spawn', error: spawnError(session, sc) };
  return { outcome: 'missing-transcript', error: null };
}

/** First line of the error a spawning call returned (at most 200 characters), or null. */
function spawnError(session: Session, sc: Sidechain): string | null {
  const callId = sc.spawn?.toolUseId;
  if (!callId) return null;
  const call = callOf(session, callId);
  const result = call?.resultUuid ? session.entries.find((e) => e.uuid === call.resultUuid) : undefined;
  for (const block of result?.content ?? []) {
    if (block.type !== 'tool_result' || block.toolUseId !== callId) continue;
    for (const item of block.content) {
      if (item.type !== 'text') continue;
      const line =
        item.text
          .replace(/<\/?tool_use_error>/g, '')
          .trim()
          .split('\n')[0] ?? '';
      if (line !== '') return line.slice(0, 200);
    }
  }
  return null;
}
