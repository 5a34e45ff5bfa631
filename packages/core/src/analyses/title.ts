/**
 * Titles: the first thing the person typed, the title a session is stored with, and the title it is shown with.
 */
import type { Entry, MetadataRecord } from '../model/entry.js';
import { isTypedCommand, promptText } from '../normalize/prompt-text.js';

/** `firstPrompt` is cut to this many characters, so that structure-only builds (which keep no more) agree. */
const FIRST_PROMPT_CHARS = 2000;

/** Titles are at most this many characters (the last one an ellipsis when cut). */
const TITLE_CHARS = 120;

/**
 * The first thing the person typed in the main conversation (at most 2000 characters), or null.
 *
 * @param entries A session's entries, with their sidechains found.
 * @param beforeCut Rewrites the prompt before it is cut (`BuildOptions.beforeCut`).
 */
export function findFirstPrompt(
  entries: readonly Entry[],
  beforeCut: (text: string) => string = same,
): string | null {
  for (const entry of entries) {
    if (entry.sidechain !== null || entry.isSidechain) continue;
    if (entry.kind !== 'prompt' && !isTypedCommand(entry)) continue;
    const text = promptText(entry.content);
    if (text) return beforeCut(text).slice(0, FIRST_PROMPT_CHARS);
  }
  return null;
}

/**
 * The title a session is stored with (`Session.title`): its first prompt without markup tags, else its latest
 * `summary` line that summarizes this session, as one line of at most 120 characters; null when it has neither.
 * A summary whose `leafUuid` names an entry of another file titles that file's session, not this one (1.0.x
 * writes them into the next session's file), so a summary-only file takes no other session's title.
 *
 * @param firstPrompt The session's first prompt.
 * @param metadata Its metadata records.
 * @param isOwnEntry Whether a uuid is an entry of this session (default: every summary counts).
 * @param beforeCut Rewrites a summary before it is cut (`BuildOptions.beforeCut`).
 */
export function storedTitle(
  firstPrompt: string | null,
  metadata: readonly MetadataRecord[],
  isOwnEntry: (uuid: string) => boolean = () => true,
  beforeCut: (text: string) => string = same,
): string | null {
  if (firstPrompt) return oneLine(firstPrompt.replace(/<[^>]{1,40}>/g, ' '));
  for (let i = metadata.length - 1; i >= 0; i--) {
    const { summary, leafUuid } = metadata[i]!.record;
    if (metadata[i]!.type !== 'summary' || typeof summary !== 'string' || !summary.trim()) continue;
    if (typeof leafUuid === 'string' && !isOwnEntry(leafUuid)) continue;
    return oneLine(beforeCut(summary).replace(/<[^>]{1,40}>/g, ' '));
  }
  return null;
}

/**
 * The title to show for a session: its stored title, else its first prompt, else its id, as one line of at
 * most 120 characters. Takes a `Session` or an archive index line (`ArchiveSessionSummary`).
 *
 * @param session The session's id, title and first prompt.
 * @example sessionTitle({ id: 'a1', title: null, firstPrompt: null }) // 'a1'
 */
export function sessionTitle(session: {
  id: string;
  title: string | null;
  firstPrompt: string | null;
}): string {
  const text = oneLine(session.title ?? session.firstPrompt ?? '');
  return text === '' ? session.id : text;
}

function same(text: string): string {
  return text;
}

/** Whitespace runs become one space; the text is trimmed and cut to `TITLE_CHARS`. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}
