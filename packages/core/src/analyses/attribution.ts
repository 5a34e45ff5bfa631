/** Attribution: which sidechain each tool call ran in, and the usage of each epoch and sidechain. */
import type { Dag } from '../graph/dag.js';
import type { Entry } from '../model/entry.js';
import type { Epoch, Sidechain, ToolCall, UsageBreakdown } from '../model/session.js';
import { ownValue } from '../own-keys.js';

/**
 * Sets `ToolCall.sidechain` from the entry that made each call.
 *
 * @param calls The paired tool calls.
 * @param dag The linked session, with its sidechains found.
 */
export function attributeToolCalls(calls: readonly ToolCall[], dag: Dag): void {
  const entries: readonly Entry[] = dag.entries;
  for (const call of calls) {
    const at = call.callUuid === null ? undefined : dag.index.get(call.callUuid);
    call.sidechain = at === undefined ? null : entries[at]!.sidechain;
  }
}

/**
 * Sets the usage of each epoch and sidechain from the session's usage breakdown.
 *
 * @param usage The breakdown over the session's API responses.
 * @param epochs The session's epochs.
 * @param sidechains Its sidechains.
 */
export function attributeUsage(
  usage: UsageBreakdown,
  epochs: readonly Epoch[],
  sidechains: readonly Sidechain[],
): void {
  for (const epoch of epochs) epoch.usage = ownValue(usage.byEpoch, String(epoch.index)) ?? epoch.usage;
  for (const sidechain of sidechains)
    sidechain.usage = ownValue(usage.bySidechain, sidechain.id) ?? sidechain.usage;
}
