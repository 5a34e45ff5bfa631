import { contextTokens } from '@cctrail/core';
import type { Compaction, Session } from '../model.js';

/**
 * The tokens after a compaction when its boundary does not record them (`postTokens` null, as Claude Code
 * writes most boundaries): the context of the next API response of the same conversation (main thread or
 * sidechain), which is what the model saw once the compaction was done. Responses Claude Code made up
 * (`<synthetic>` model, no API call) do not count.
 */

/** Model name of the responses Claude Code writes without calling the API. */
export const SYNTHETIC_MODEL = '<synthetic>';

/** Tokens after each compaction that records none, by boundary uuid (absent when no response follows). */
export function tokensAfterCompactions(session: Session): Map<string, number> {
  const out = new Map<string, number>();
  const wanted = session.compactions.filter((c) => c.uuid !== null && c.postTokens === null);
  if (wanted.length === 0) return out;
  const at = new Map(session.entries.map((e, i) => [e.uuid, i]));
  // Responses of each conversation (main thread: ''), by the position of their first line.
  const bySide = new Map<string, { at: number; context: number }[]>();
  for (const r of session.responses) {
    if (r.model === SYNTHETIC_MODEL) continue;
    const first = at.get(r.entries[0] ?? '');
    const context = contextTokens(r.usage);
    if (first === undefined || context === 0) continue;
    const list = bySide.get(r.sidechain ?? '') ?? [];
    list.push({ at: first, context });
    bySide.set(r.sidechain ?? '', list);
  }
  for (const list of bySide.values()) list.sort((a, b) => a.at - b.at);
  for (const c of wanted) {
    const from = at.get(c.uuid!);
    const list = bySide.get(c.sidechain ?? '');
    if (from === undefined || !list) continue;
    const next = list[firstAfter(list, from)];
    if (next) out.set(c.uuid!, next.context);
  }
  return out;
}

function firstAfter(list: readonly { at: number }[], position: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at <= position) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A compaction's tokens as text: `185,000 → 21,000 tokens`, with `(next response)` when the tokens after come
 * from the next response; what is unknown is left out, never shown as `?`. Empty when neither is known.
 */
export function compactionTokensText(
  c: Pick<Compaction, 'preTokens' | 'postTokens'>,
  after?: number,
): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const post = c.postTokens ?? after ?? null;
  const source = c.postTokens === null && post !== null ? ' (next response)' : '';
  if (c.preTokens !== null && post !== null) return `${fmt(c.preTokens)} → ${fmt(post)} tokens${source}`;
  if (c.preTokens !== null) return `${fmt(c.preTokens)} tokens before`;
  if (post !== null) return `${fmt(post)} tokens after${source}`;
  return '';
}
