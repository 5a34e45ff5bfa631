/**
 * Epochs and forks of a conversation on its JOINED graph (FORMAT.md §13.6): one uuid is one entry however many
 * files copy it, so an auto-compaction continued in a new file, a `--resume` into a new file and a `/branch` copy
 * add to the same epochs instead of starting their own.
 *
 * An epoch is keyed by the compaction boundary that opened it (the same uuid in every copy), or, for the epoch a
 * file starts in without a boundary, by the epoch of the entry it hangs from: a copied entry of an earlier file,
 * else the entry it resumes or forks from, else a new root. Files are joined in time order; the first file that
 * holds a uuid or a response places it. Linear in the conversation's entries and responses.
 */
import { type ForkCounts, forkCounts } from '../analyses/fork-kinds.js';
import { addUsage, emptyUsage } from '../graph/usage.js';
import type { JoinedEpoch } from '../model/conversation.js';
import type { ForkKind } from '../model/session.js';
import type { ConversationInput } from './conversation-input.js';
import { idsOf } from './id-list.js';
import type { JoinedDigest } from './joined-digest.js';
import { costsOf, usagesOf } from './response-table.js';
import { addCost, emptyCost } from './session-cost.js';

/** Branch points of the joined graph by class (each once), and the `/branch` copies that go on. */
export type JoinedForks = ForkCounts & { branches: number };

/**
 * The epochs and forks of one conversation, on its joined graph.
 *
 * @param files The conversation's sessions, in time order.
 * @param branches How many of them are `/branch` copies that go on from their fork point.
 */
export function joinConversation(
  files: readonly ConversationInput[],
  branches: number,
): { epochs: JoinedEpoch[]; forks: JoinedForks } {
  const keyOf = new Map<string, string>();
  const epochs = new Map<string, JoinedEpoch>();
  const seen = new Set<string>();
  const points = new Map<string, ForkKind>();
  const epochAt = (key: string) => {
    let epoch = epochs.get(key);
    if (!epoch) {
      epoch = {
        compaction: null,
        trigger: null,
        timestamp: null,
        files: [],
        entries: 0,
        usage: emptyUsage(),
      };
      epochs.set(key, epoch);
    }
    return epoch;
  };
  // One file is its own joined graph: no uuid needs looking up in another.
  const single = files.length === 1;
  for (const file of files) {
    const links = file.digest.conversation;
    const joined = links?.joined;
    if (!links || !joined) continue;
    const uuids = idsOf(file.digest.uuids);
    const keys = fileEpochKeys(file, uuids, joined, keyOf);
    joined.epochOf.forEach((coded, i) => {
      const uuid = uuids[i]!;
      const known = single ? undefined : keyOf.get(uuid);
      const key = known ?? keys[coded < 0 ? -1 - coded : coded]!;
      if (known === undefined && !single) keyOf.set(uuid, key);
      const epoch = epochAt(key);
      if (epoch.files[epoch.files.length - 1] !== file.id) epoch.files.push(file.id);
      if (known === undefined && coded >= 0) epoch.entries += 1;
    });
    for (const c of links.compactions) {
      const epoch = joined.boundaries.includes(c.uuid) ? epochs.get(c.uuid) : undefined;
      if (epoch && epoch.compaction === null)
        Object.assign(epoch, { compaction: c.uuid, trigger: c.trigger, timestamp: c.timestamp });
    }
    const costs = new Map(costsOf(file.digest.responses).map((c) => [c.key, c.usd]));
    usagesOf(file.digest.responses).forEach(({ key, usage }, i) => {
      if (seen.has(key)) return;
      seen.add(key);
      const epoch = epochAt(keys[joined.responseEpochs[i] ?? 0] ?? keys[0]!);
      addUsage(epoch.usage, usage);
      if (!costs.has(key)) return;
      epoch.cost ??= emptyCost();
      addCost(epoch.cost, costs.get(key)!);
    });
    for (const { uuid, kind } of joined.branchPoints) if (!points.has(uuid)) points.set(uuid, kind);
  }
  return {
    epochs: [...epochs.values()].filter((e) => e.entries > 0 || e.usage.responses > 0),
    forks: { ...forkCounts([...points.values()].map((kind) => ({ kind }))), branches },
  };
}

/** The joined key of each epoch of a file (see the module's comment). */
function fileEpochKeys(
  file: ConversationInput,
  uuids: readonly string[],
  joined: JoinedDigest,
  keyOf: ReadonlyMap<string, string>,
): string[] {
  const links = file.digest.conversation;
  const inherited = new Map<number, string>();
  if (keyOf.size > 0)
    joined.epochOf.forEach((coded, i) => {
      const e = coded < 0 ? -1 - coded : coded;
      const known = inherited.has(e) ? undefined : keyOf.get(uuids[i]!);
      if (known !== undefined) inherited.set(e, known);
    });
  const resumed = (links?.refs ?? []).map((r) => keyOf.get(r.uuid)).find((k) => k !== undefined);
  const forked = links?.forkedFrom?.at ? keyOf.get(links.forkedFrom.at) : undefined;
  return joined.boundaries.map(
    (boundary, e) => boundary ?? inherited.get(e) ?? resumed ?? forked ?? `root:${file.id}:${e}`,
  );
}
