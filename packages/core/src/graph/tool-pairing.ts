/**
 * Pairs every `tool_use` with its `tool_result` by id, across the whole session (main file, sidechains,
 * delayed results), and gives each call a status and a duration.
 */

import type { Diagnostic } from '../diagnostics.js';
import { diagnostic } from '../diagnostics.js';
import type { Entry } from '../model/entry.js';
import type { ToolCall } from '../model/session.js';
import { instantOf } from '../read/timestamps.js';

/** Where calls and results are, for the other analyses. */
export interface ToolIndex {
  calls: ToolCall[];
  /** tool_use id → index of the entry holding the call. */
  callEntry: Map<string, number>;
  /** tool_use id → the call's input. */
  callInput: Map<string, unknown>;
  /** tool_use id → index of the entry holding the (first) result. */
  resultEntry: Map<string, number>;
}

/**
 * Pairs calls and results. `ToolCall.sidechain` is filled in later, once sidechains are known.
 */
export function pairTools(entries: readonly Entry[], diagnostics: Diagnostic[]): ToolIndex {
  const callEntry = new Map<string, number>();
  const callInput = new Map<string, unknown>();
  const callName = new Map<string, string>();
  const resultEntry = new Map<string, number>();
  const resultError = new Map<string, boolean>();

  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    for (const block of entry.content) {
      if (block.type === 'tool_use') {
        if (!callEntry.has(block.id)) {
          callEntry.set(block.id, i);
          callInput.set(block.id, block.input);
          callName.set(block.id, block.name);
        }
      } else if (block.type === 'tool_result') {
        if (resultEntry.has(block.toolUseId)) {
          diagnostics.push(
            diagnostic('duplicate-tool-result', entry.source.file, entry.source.line, {
              uuid: entry.uuid,
              message: `A second result for tool call ${block.toolUseId}; the first is paired.`,
            }),
          );
        } else {
          resultEntry.set(block.toolUseId, i);
          resultError.set(block.toolUseId, block.isError);
        }
      }
    }
  }

  const calls: ToolCall[] = [];
  for (const [id, at] of callEntry) {
    const call = entries[at]!;
    const resultAt = resultEntry.get(id);
    const result = resultAt === undefined ? null : entries[resultAt]!;
    if (!result) {
      diagnostics.push(
        diagnostic('tool-result-missing', call.source.file, call.source.line, {
          uuid: call.uuid,
          message: `Tool call ${id} (${callName.get(id)}) has no result.`,
        }),
      );
    }
    calls.push({
      id,
      name: callName.get(id)!,
      callUuid: call.uuid,
      resultUuid: result?.uuid ?? null,
      status: !result ? 'missing-result' : resultError.get(id) ? 'error' : 'ok',
      durationMs: result ? duration(call.timestamp, result.timestamp) : null,
      batch: call.message?.id ?? null,
      sidechain: null,
    });
  }
  for (const [id, at] of resultEntry) {
    if (callEntry.has(id)) continue;
    const result = entries[at]!;
    diagnostics.push(
      diagnostic('tool-call-missing', result.source.file, result.source.line, {
        uuid: result.uuid,
        message: `Tool result for ${id} has no call in the session.`,
      }),
    );
    calls.push({
      id,
      name: 'unknown',
      callUuid: null,
      resultUuid: result.uuid,
      status: 'result-without-call',
      durationMs: null,
      batch: null,
      sidechain: null,
    });
  }
  return { calls, callEntry, callInput, resultEntry };
}

function duration(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  const ms = instantOf(to) - instantOf(from);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}
