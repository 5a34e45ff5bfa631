/**
 * What a live window needs besides its own lines. A spawned agent's card (under its Task or Agent call) tells of
 * the agent's transcript (its size, its status, its page), which is another file: a window whose lines spawn an
 * agent is built with the agent files of its session folder (`<session>/subagents/agent-*.jsonl` and their
 * sidecars), read as they are now. And the calls a window's cards make: a card whose calls all have their
 * results, and that spawns no agent (its card tells of the agent's transcript as it grows), can change no more,
 * so the window may stop drawing it.
 */

import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AgentMetaSource, TranscriptSource } from '@cctrail/core';

/** The agent transcripts and sidecars a window is built with. */
export interface WindowAgents {
  agents: TranscriptSource[];
  agentMeta: AgentMetaSource[];
}

const NONE: WindowAgents = { agents: [], agentMeta: [] };
/** A record that calls a tool that spawns an agent (the JSON of a `tool_use` block named Task or Agent). */
const SPAWN =
  /"type":\s*"tool_use"[^{}]*"name":\s*"(?:Task|Agent)"|"name":\s*"(?:Task|Agent)"[^{}]*"type":\s*"tool_use"/;

/**
 * The agent files of a main transcript's session, when its window's records spawn an agent.
 *
 * @param file The session's main transcript (`<project>/<id>.jsonl`).
 * @param records The window's lines.
 */
export function windowAgents(file: string, records: readonly string[]): WindowAgents {
  if (!records.some((r) => SPAWN.test(r))) return NONE;
  const folder = join(dirname(file), basename(file, '.jsonl'), 'subagents');
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return NONE;
  }
  const names = entries.filter((e) => e.isFile() && e.name.startsWith('agent-')).map((e) => e.name);
  const agents = names
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => fileNow(join(folder, name)));
  const agentMeta = names
    .filter((name) => name.endsWith('.meta.json'))
    .sort()
    .flatMap((name) => {
      try {
        return [{ path: join(folder, name), text: readFileSync(join(folder, name), 'utf8') }];
      } catch {
        return [];
      }
    });
  return { agents, agentMeta };
}

/** A transcript source of a file's bytes as they are when it is read ('' once it is gone). */
function fileNow(path: string): TranscriptSource {
  return {
    path,
    async *read() {
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        return;
      }
      yield bytes;
    },
  };
}

/**
 * Whether the cards of `before` may still change: a tool they call has no result in `before` or `after` (it is
 * shown with its call when it comes), or they spawn an agent.
 *
 * @param before Records (lines) of the cards that would stop being drawn.
 * @param after The records after them.
 */
export function stillChanging(before: readonly string[], after: readonly string[]): boolean {
  if (before.some((r) => SPAWN.test(r))) return true;
  const calls = new Set<string>();
  for (const line of before) for (const id of blockIds(line, 'tool_use', 'id')) calls.add(id);
  if (calls.size === 0) return false;
  for (const line of [...before, ...after])
    for (const id of blockIds(line, 'tool_result', 'tool_use_id')) calls.delete(id);
  return calls.size > 0;
}

/** The ids a record's content blocks of one type carry; a line that is not a record has none. */
function blockIds(line: string, type: string, key: string): string[] {
  if (!line.includes(`"${type}"`)) return [];
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return [];
  }
  const content = (record as { message?: { content?: unknown } } | null)?.message?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((b: Record<string, unknown> | null) =>
    b !== null && typeof b === 'object' && b.type === type && typeof b[key] === 'string'
      ? [b[key] as string]
      : [],
  );
}
