/**
 * The live window of one followed transcript: its lines from the first entry of the last card its page shows,
 * and those appended since, built as a session of their own (core's `buildSession`), redacted by the report's
 * privacy transform and drawn by the report's own renderer (`renderLiveTranscript`), so that the cards a live
 * page shows are those the session's rebuild writes. The window starts where the page's last card starts,
 * found by reading back from the point the build read to; a page whose last cards are not what the window
 * draws from the same lines (a page cut elsewhere) cannot be followed live: the caller rebuilds the session
 * instead. A window whose lines spawn an agent is built with the session's agent files (`window-agents.ts`), so
 * that the agent's card is drawn as its page draws it.
 *
 * The cards a window has drawn and that can no longer change (a later card follows them, every tool they call
 * has its result, and they spawn no agent) are kept as drawn, and their lines dropped: each append draws the
 * window's last card and what came after it, not everything appended since the page was built. Its cost, and
 * the memory it churns through, stay those of the append however long the session runs before it is rebuilt.
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { buildSession, type Session } from '@cctrail/core';
import type { LiveOptions, LiveScope, LiveTranscript } from '@cctrail/report';
import type { Transform } from '../privacy/transform.js';
import { type PagePart, spliceTail, transcriptTail } from './page-splice.js';
import { stillChanging, windowAgents } from './window-agents.js';

/** What the live path draws with, from `@cctrail/report`. */
export interface LiveRenderer {
  /** The report's `renderLiveTranscript`. */
  transcript(session: Session, scope: LiveScope, options?: LiveOptions): LiveTranscript | null;
  /** The report's `escapeHtml` (for the notes on appended lines that are not records). */
  escape(text: string): string;
}

/**
 * The report's live renderer, loaded (`@cctrail/report` is loaded only by the commands that build a report).
 */
export async function liveRenderer(): Promise<LiveRenderer> {
  const report = await import('@cctrail/report');
  await report.loadLiveRenderer();
  return { transcript: report.renderLiveTranscript, escape: report.escapeHtml };
}

/** What a window is drawn with. */
export interface WindowContext {
  file: string;
  scope: LiveScope;
  /** The page drawn for: its route and its session's slugs (from its URL path, `/s/<project>/<session>/…`). */
  page: NonNullable<LiveOptions['page']>;
  privacy: Transform;
  render: LiveRenderer;
}

/** Bytes read back from the build's point to find the page's last card, at first; doubled up to the most. */
const READ_BACK = 256 * 1024;
const READ_BACK_MOST = 16 * 1024 * 1024;
/** Points tried as the one a rebuild read the file to (appends while it ran), at most. */
const MOST_UNREAD = 64;

/** The live window of a transcript (see the module comment). */
export class LiveWindow {
  /** The element id of the card's first entry the window starts at (`e-<uuid>`). */
  readonly anchor: string;
  /** Records added since the window was opened. */
  private added = 0;
  /** The HTML of the cards that can no longer change, from the window's first card to `lead`'s. */
  private kept = '';
  /** The uuid of the first entry of the card the window draws from (its first card's, until cards are kept). */
  private lead: string;
  /** The lines from `lead`'s on. */
  private records: string[];
  private drawn: string;

  private constructor(
    private readonly context: WindowContext,
    from: string,
    anchor: string,
    records: string[],
    drawn: string,
  ) {
    this.anchor = anchor;
    this.lead = from;
    this.records = records;
    this.drawn = drawn;
  }

  /**
   * Opens the window of a file whose page was built from its first `built` bytes, checked against the page.
   *
   * @param context The file and how to draw it.
   * @param built Bytes the page shows at least (a whole-line point): a rebuild shows what the file held as it
   *   started, and maybe some lines appended while it ran.
   * @param end Bytes read so far (a whole-line point, `built` or more): the lines between are drawn too.
   * @param page The page's HTML as built.
   * @returns The window, or null when the page's last cards cannot be drawn from the file's lines.
   */
  static async open(
    context: WindowContext,
    built: number,
    end: number,
    page: string,
  ): Promise<LiveWindow | null> {
    for (let back = READ_BACK; ; back *= 4) {
      const start = Math.max(0, built - back);
      const lines = wholeLines(context.file, start, end);
      const before = lines.filter((l) => l.offset < built).map((l) => l.text);
      const drawn = draw(context, await windowSession(context, before));
      // The first card read may have started before the bytes read back: it is not trusted, unless it is the file's.
      const cards = drawn?.cards ?? [];
      const last = cards.length > (start === 0 ? 0 : 1) ? cards.at(-1) : undefined;
      if (last !== undefined) {
        const first = lines.findIndex((l) => recordUuid(l.text) === last.uuid);
        if (first < 0) return null;
        const from = lines.slice(first);
        const records = from.map((l) => l.text);
        const part = transcriptTail(page, last.anchor);
        if (part === null) return null;
        // The page's last cards must be what the window draws from the lines the page was built from: those
        // before `built`, or some of the lines after it too (a rebuild reads the file after it starts).
        const shown = page.slice(part.start, part.end);
        const ends = [built, ...from.filter((l) => l.offset > built).map((l) => l.offset), end];
        for (const at of ends.slice(0, MOST_UNREAD)) {
          const count = from.filter((l) => l.offset < at).length;
          const then = draw(context, await windowSession(context, records.slice(0, count)), last.uuid);
          if (then?.html !== shown) continue;
          const now = draw(context, await windowSession(context, records), last.uuid);
          if (now === null) return null;
          const window = new LiveWindow(context, last.uuid, last.anchor, records, now.html);
          await window.keep(now);
          return window;
        }
        return null;
      }
      if (start === 0 || back >= READ_BACK_MOST) return null;
    }
  }

  /** Records added since the window was opened: what its page lacks. */
  get size(): number {
    return this.added;
  }

  /** Lines the window holds to draw its cards again (those of the cards that can still change). */
  get held(): number {
    return this.records.length;
  }

  /**
   * Adds appended records and draws the window again.
   *
   * @param records The records' lines.
   * @returns False when the window can no longer be drawn as its page would be (the session must be rebuilt).
   */
  async add(records: readonly string[]): Promise<boolean> {
    if (records.length === 0) return true;
    const next = [...this.records, ...records];
    const drawn = draw(this.context, await windowSession(this.context, next), this.lead);
    if (drawn === null) return false;
    this.added += records.length;
    this.records = next;
    this.drawn = this.kept + drawn.html;
    await this.keep(drawn);
    return true;
  }

  /**
   * A page with the window's cards in place of its last ones.
   *
   * @param page The page as built.
   * @returns The page, or null when it does not hold the window's first card (it was rebuilt meanwhile).
   */
  place(page: string): string | null {
    const part: PagePart | null = transcriptTail(page, this.anchor);
    return part === null ? null : spliceTail(page, part, this.drawn);
  }

  /**
   * Keeps the cards before the last one as drawn, and draws from the last one on from now: when they can no
   * longer change (`stillChanging`), and the last card drawn alone is what it is drawn after them.
   *
   * @param drawn The window as just drawn from `lead`.
   */
  private async keep(drawn: LiveTranscript): Promise<void> {
    const last = drawn.cards.at(-1);
    if (last === undefined || last.uuid === this.lead) return;
    const at = this.records.findIndex((r) => recordUuid(r) === last.uuid);
    if (at <= 0 || stillChanging(this.records.slice(0, at), this.records.slice(at))) return;
    const cut = drawn.html.lastIndexOf('<', drawn.html.indexOf(` id="${last.anchor}"`));
    if (cut < 0) return;
    const rest = this.records.slice(at);
    const alone = draw(this.context, await windowSession(this.context, rest), last.uuid);
    if (alone?.html !== drawn.html.slice(cut)) return;
    this.kept += drawn.html.slice(0, cut);
    this.lead = last.uuid;
    this.records = rest;
  }
}

/** A window's session drawn for its page, from a card's first entry (its first card by default). */
function draw(context: WindowContext, session: Session, from?: string): LiveTranscript | null {
  return context.render.transcript(session, context.scope, {
    page: context.page,
    ...(from ? { from } : {}),
  });
}

/** The window's records as a session, privacy options applied. */
async function windowSession(context: WindowContext, records: readonly string[]): Promise<Session> {
  const bytes = Buffer.from(records.length === 0 ? '' : `${records.join('\n')}\n`);
  const source = {
    path: context.file,
    async *read() {
      yield bytes;
    },
  };
  const id = basename(context.file, '.jsonl');
  const session = await buildSession(
    context.scope === 'main'
      ? { id, main: source, ...windowAgents(context.file, records) }
      : { id, main: null, agents: [source] },
  );
  return context.privacy(session);
}

/** The record's uuid, or null (not a record, or one without). */
function recordUuid(text: string): string | null {
  try {
    const record = JSON.parse(text) as { uuid?: unknown };
    return typeof record.uuid === 'string' ? record.uuid : null;
  } catch {
    return null;
  }
}

/** The whole lines of a file between two offsets (the first dropped when `start` is inside a line). */
function wholeLines(file: string, start: number, end: number): { text: string; offset: number }[] {
  const buffer = Buffer.alloc(end - start);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  const lines: { text: string; offset: number }[] = [];
  let at = start > 0 ? buffer.indexOf(0x0a) + 1 : 0;
  if (start > 0 && at === 0) return lines;
  while (at < buffer.length) {
    const nl = buffer.indexOf(0x0a, at);
    if (nl < 0) break;
    const text = buffer.toString('utf8', at, nl);
    if (text.trim() !== '') lines.push({ text, offset: start + at });
    at = nl + 1;
  }
  return lines;
}
