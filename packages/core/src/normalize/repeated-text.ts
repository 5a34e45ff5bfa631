/**
 * One copy of a long text a transcript writes twice. A tool's result is written in the tool result's content and
 * again in the line's `toolUseResult` (a file's content, a command's output), a task's prompt in the call's input
 * and again in the progress lines of its agent: `JSON.parse` makes a string of each, and both would be held as
 * long as the session is. Entries keep the copy seen first instead; the text written is the same.
 */

import type { ContentBlock } from '../model/entry.js';
import { setOwn } from '../own-keys.js';
import { isObject } from './values.js';

/** Shorter texts are kept as they are (the tables of `shared` take the short values that repeat). */
const MIN_LENGTH = 64;
/** Texts are found by their length, modulo this many slots: a text and its copy are mostly near each other. */
const SLOTS = 1024;
/** The characters the slots may hold: past them the table starts again (it holds text only to share it). */
const HELD_CHARS = 4 << 20;
/** How deep `keepOnceIn` looks into a value (a tool's result, a progress line's data). */
const MAX_DEPTH = 8;

const slots: (string | undefined)[] = new Array(SLOTS).fill(undefined);
let held = 0;

/**
 * The copy seen first of a text equal to `text` when one is known, else `text`, now known.
 *
 * @param text A text as parsed.
 */
export function keepOnce(text: string): string {
  if (text.length < MIN_LENGTH) return text;
  const slot = text.length & (SLOTS - 1);
  const known = slots[slot];
  if (known === text) return known;
  if (text.length > HELD_CHARS) return text;
  held += text.length - (known?.length ?? 0);
  if (held > HELD_CHARS) {
    slots.fill(undefined);
    held = text.length;
  }
  slots[slot] = text;
  return text;
}

/**
 * Replaces, in place, the long texts of a parsed value (objects and arrays, `MAX_DEPTH` levels down) by the copies
 * `keepOnce` gives, and returns it.
 *
 * @param value A value as parsed, owned by the caller.
 */
export function keepOnceIn<T>(value: T): T {
  if (typeof value === 'string') return keepOnce(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  const stack: { at: Record<string, unknown> | unknown[]; depth: number }[] = [
    { at: value as Record<string, unknown>, depth: 1 },
  ];
  while (stack.length > 0) {
    const { at, depth } = stack.pop()!;
    if (Array.isArray(at)) {
      for (let i = 0; i < at.length; i++) {
        const item = at[i];
        if (typeof item === 'string') {
          if (item.length >= MIN_LENGTH) at[i] = keepOnce(item);
        } else if (depth < MAX_DEPTH && typeof item === 'object' && item !== null)
          stack.push({ at: item as Record<string, unknown>, depth: depth + 1 });
      }
    } else if (isObject(at)) {
      for (const key in at) {
        if (!Object.hasOwn(at, key)) continue;
        const item = at[key];
        if (typeof item === 'string') {
          if (item.length >= MIN_LENGTH) setOwn(at, key, keepOnce(item));
        } else if (depth < MAX_DEPTH && typeof item === 'object' && item !== null)
          stack.push({ at: item as Record<string, unknown>, depth: depth + 1 });
      }
    }
  }
  return value;
}

/**
 * Replaces, in place, the texts of an entry's content blocks (text, tool results' text, tools' input) by the copies
 * `keepOnce` gives, and returns the blocks.
 *
 * @param blocks Content blocks just read from a parsed record.
 */
export function keepBlocksOnce(blocks: ContentBlock[]): ContentBlock[] {
  for (const block of blocks) {
    if (block.type === 'text') block.text = keepOnce(block.text);
    else if (block.type === 'tool_use') block.input = keepOnceIn(block.input);
    else if (block.type === 'tool_result')
      for (const item of block.content) if (item.type === 'text') item.text = keepOnce(item.text);
  }
  return blocks;
}
