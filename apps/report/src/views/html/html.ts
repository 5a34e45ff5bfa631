/**
 * Safe HTML strings. `html` is a tagged template that escapes every interpolated value unless it is a
 * `SafeHtml` (made by `html` itself or by `trusted`, which only sanitizers and our own SVG builders use).
 * Transcript text is hostile: nothing reaches a page without passing through `escapeHtml`.
 */

import { BIDI_CLASS, neutralizeBidi } from './bidi.js';

/** A string of HTML that is safe to insert as it is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces lone UTF-16 surrogates (invalid in HTML output) by U+FFFD, and bidi controls by a visible mark. */
export function wellFormed(text: string): string {
  return neutralizeBidi(text.replace(LONE_SURROGATE, '\uFFFD'));
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Any character `escapeHtml` changes: most text has none, and is returned as it is after one scan. */
const TO_ESCAPE = new RegExp(`[&<>"'\\uD800-\\uDFFF${BIDI_CLASS}]`);

/** Escapes text for HTML content and quoted attribute values (also repairs lone surrogates). */
export function escapeHtml(text: string): string {
  if (!TO_ESCAPE.test(text)) return text;
  return wellFormed(text).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Marks a string as safe HTML. Only for output of the sanitizer or of our own builders. */
export function trusted(value: string): SafeHtml {
  return new SafeHtml(value);
}

type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template building `SafeHtml`: interpolations are escaped, arrays joined, null/false dropped. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i] as Value) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Result of `clip`: the head to show, and whether (and how much) was cut. */
export interface Clipped {
  head: string;
  truncated: boolean;
  /** Characters of the full text. */
  length: number;
}

/** Cuts text to `limit` characters (never inside a surrogate pair) and says whether it cut. */
export function clip(text: string, limit: number): Clipped {
  if (text.length <= limit) return { head: text, truncated: false, length: text.length };
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { head: text.slice(0, end), truncated: true, length: text.length };
}

/** Formats a character count as a short size (`12.3 KB`). */
export function formatSize(chars: number): string {
  if (chars < 1024) return `${chars} B`;
  if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} KB`;
  return `${(chars / 1024 / 1024).toFixed(1)} MB`;
}
