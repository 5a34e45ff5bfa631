/**
 * Files read again after a compaction (the "Conversation Flow Architecture" analysis): after a full
 * compaction the model no longer has earlier tool results, so it reads the same files again and pays for
 * them again. Token costs are estimated from the size of the read result (about 4 characters per token), so
 * the analysis needs a session built with content.
 */
import type { Entry } from '../model/entry.js';
import type { Session } from '../model/session.js';

/** Tools whose input names a file that is read, and the input field that names it. */
const READ_TOOLS: Readonly<Record<string, string>> = {
  Read: 'file_path',
  NotebookRead: 'notebook_path',
  View: 'file_path',
};

/** Characters per token used for estimates. */
const CHARS_PER_TOKEN = 4;

/** One file read again after a compaction. */
export interface Reread {
  file: string;
  /** Reads of the file before the compaction (any earlier epoch). */
  readsBefore: number;
  /** Reads in the epoch that the compaction opened. */
  readsAfter: number;
  /** Estimated tokens of the reads after the compaction. */
  tokens: number;
  /** Uuid of the first entry that read it again. */
  firstUuid: string;
}

/** Re-reads after one compaction. */
export interface RereadsAfterCompaction {
  /** Uuid of the boundary (null for seed records without one). */
  compaction: string | null;
  epoch: number;
  timestamp: string | null;
  /** Largest estimated cost first, then by file name. */
  files: Reread[];
  /** Estimated tokens of all re-reads after this compaction. */
  tokens: number;
}

interface Read {
  file: string;
  epoch: number;
  tokens: number;
  uuid: string;
}

/** Every file read by a Read-like tool call among `entries`, with its epoch and estimated cost. */
function readsOf(entries: readonly Entry[]): Read[] {
  const resultChars = new Map<string, number>();
  for (const e of entries) {
    for (const b of e.content) {
      if (b.type !== 'tool_result') continue;
      let chars = 0;
      for (const item of b.content) if (item.type === 'text') chars += item.text.length;
      resultChars.set(b.toolUseId, chars);
    }
  }
  const reads: Read[] = [];
  for (const e of entries) {
    for (const b of e.content) {
      if (b.type !== 'tool_use') continue;
      const key = READ_TOOLS[b.name];
      const input = b.input as Record<string, unknown> | null;
      const file = key && input && typeof input === 'object' ? input[key] : undefined;
      if (typeof file !== 'string') continue;
      reads.push({
        file,
        epoch: e.epoch,
        tokens: Math.ceil((resultChars.get(b.id) ?? 0) / CHARS_PER_TOKEN),
        uuid: e.uuid,
      });
    }
  }
  return reads;
}

/**
 * Files of the main conversation's active entries read again after each full compaction of the main
 * conversation, one result per compaction (also when nothing was read again).
 *
 * @param session A session built with content.
 * @example rereadsAfterCompactions(session)[0]?.files[0] // { file: 'src/cart.ts', readsBefore: 1, readsAfter: 1, … }
 */
export function rereadsAfterCompactions(session: Session): RereadsAfterCompaction[] {
  const main = session.entries.filter((e) => e.sidechain === null && e.active);
  const reads = readsOf(main);
  const out: RereadsAfterCompaction[] = [];
  for (const c of session.compactions) {
    if (c.kind !== 'full' || c.sidechain !== null) continue;
    const before = new Map<string, number>();
    for (const r of reads) if (r.epoch < c.epoch) before.set(r.file, (before.get(r.file) ?? 0) + 1);
    const after = new Map<string, Reread>();
    for (const r of reads) {
      if (r.epoch !== c.epoch || !before.has(r.file)) continue;
      const cur = after.get(r.file);
      if (cur) {
        cur.readsAfter++;
        cur.tokens += r.tokens;
      } else {
        after.set(r.file, {
          file: r.file,
          readsBefore: before.get(r.file) ?? 0,
          readsAfter: 1,
          tokens: r.tokens,
          firstUuid: r.uuid,
        });
      }
    }
    const files = [...after.values()].sort((a, b) => b.tokens - a.tokens || a.file.localeCompare(b.file));
    out.push({
      compaction: c.uuid,
      epoch: c.epoch,
      timestamp: c.timestamp,
      files,
      tokens: files.reduce((a, f) => a + f.tokens, 0),
    });
  }
  return out;
}
