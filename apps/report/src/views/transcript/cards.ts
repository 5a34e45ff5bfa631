import type { Entry } from '../model.js';

/**
 * How a transcript is read: cards and turns. A card is what a reader sees as one message: a prompt, one API
 * response (however many lines Claude Code split it into), a tool result whose call is not on the page, a
 * compaction. Progress, hook and system records, tool results shown with their call and empty lines are not
 * cards: they belong to the card before them (or, before the first card, to the first one). A turn starts
 * at a prompt typed by a person (or a sub-agent's task) or a typed command.
 */

const QUIET_KINDS = new Set(['progress', 'attachment', 'system', 'meta', 'unknown']);

/** A record Claude Code wrote about the conversation (progress, hook output, system line), not a message. */
export function isQuiet(e: Entry): boolean {
  return QUIET_KINDS.has(e.kind) && e.actor === 'system';
}

/** True for an entry that starts a turn: a prompt (not injected text) or a typed slash command. */
export function isTurnStart(e: Entry): boolean {
  if (e.isMeta) return false;
  if (e.kind === 'prompt') return e.actor === 'human' || e.actor === 'claude-as-user';
  if (e.kind !== 'command') return false;
  const b = e.content[0];
  return b?.type === 'text' && /^\s*<(command-name|command-message|bash-input)>/.test(b.text);
}

/** True when every block of the entry is a tool result (shown with its call when the call is on the page). */
export function isResultOnly(e: Entry): boolean {
  return e.content.length > 0 && e.content.every((b) => b.type === 'tool_result');
}

/** True when the entry shows nothing: no block, or only blank text. */
function isBlank(e: Entry): boolean {
  return e.content.every((b) => b.type === 'text' && b.text.trim() === '');
}

function isBoundary(e: Entry): boolean {
  return e.kind === 'compact-boundary' || e.kind === 'microcompact-boundary';
}

/**
 * True when `e` starts a new card after a card whose API response id is `head` (null when the card is not a
 * response). `folded` says whether a tool-result entry is shown with its call (then it starts no card).
 */
export function startsCard(e: Entry, head: string | null, folded: (e: Entry) => boolean): boolean {
  if (isBoundary(e)) return true;
  if (isQuiet(e)) return false;
  if (isResultOnly(e)) return !folded(e);
  if (isBlank(e)) return false;
  const id = e.message?.id ?? null;
  return !(id !== null && id === head && e.kind === 'assistant');
}

/** One card: its entries in file order; `lead` is the index in `entries` of the entry that starts it (-1: none). */
export interface Card {
  entries: Entry[];
  lead: number;
}

/**
 * Groups entries into cards: every entry belongs to exactly one card, and each card's entries are contiguous.
 * Records before the first card join it; a list without any card start is one card without a lead.
 */
export function transcriptCards(entries: readonly Entry[], folded: (e: Entry) => boolean): Card[] {
  const cards: Card[] = [];
  let leading: Entry[] = [];
  let current: Card | null = null;
  let head: string | null = null;
  for (const e of entries) {
    if (startsCard(e, head, folded)) {
      current = { entries: [...leading, e], lead: leading.length };
      leading = [];
      cards.push(current);
      head = e.kind === 'assistant' ? (e.message?.id ?? null) : null;
      // a response's later lines join it across quiet records and folded results, never across another card
    } else if (current) current.entries.push(e);
    else leading.push(e);
  }
  if (leading.length > 0) cards.push({ entries: leading, lead: -1 });
  return cards;
}
