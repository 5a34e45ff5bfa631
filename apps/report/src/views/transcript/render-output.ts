import { clip, formatSize, html, type SafeHtml } from '../html/html.js';

/** Tool outputs and other long text as escaped preformatted text, cut after a preview. */

/** Characters of a tool output shown before "show all". */
const OUTPUT_PREVIEW = 3_000;
/** Lines of a tool output shown before "show all". */
const OUTPUT_PREVIEW_LINES = 16;
/** Most characters of one output ever written to a page. */
export const FULL_OUTPUT_CAP = 200_000;
/** Escaped preformatted text, cut after a preview with a "show all" that holds up to `FULL_OUTPUT_CAP`. */
export function renderOutput(text: string, className = 'out'): SafeHtml {
  let previewEnd = Math.min(text.length, OUTPUT_PREVIEW);
  let lines = 0;
  for (let i = 0; i < previewEnd; i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= OUTPUT_PREVIEW_LINES) {
      previewEnd = i;
      break;
    }
  }
  if (previewEnd >= text.length) return html`<pre class="${className}">${text}</pre>`;
  // The rest follows the preview inside "show all", so no text is written twice.
  const full = clip(text, FULL_OUTPUT_CAP);
  const rest = full.head.slice(previewEnd);
  const cut = full.truncated
    ? html`<p class="cut">${formatSize(text.length - full.head.length)} not shown: outputs are capped at ${formatSize(FULL_OUTPUT_CAP)}.</p>`
    : '';
  return html`<div class="clipped"><pre class="${className} head">${text.slice(0, previewEnd)}</pre><details class="more"><summary>Show all (${formatSize(text.length)}, ${countLines(text)} lines)</summary><pre class="${className} rest">${rest}</pre>${cut}</details></div>`;
}

/** Lines of a text (`indexOf` skips through a megabyte of output far faster than a loop over characters). */
function countLines(text: string): number {
  let n = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** A line of `cat -n` output as the Read tool writes it: its number, then `→` or a tab, then the text. */
const NUMBERED = /^ *(\d+)(?:→|\t)(.*)$/;

/** The lines of a numbered output with their numbers, or null when the text is not numbered. */
export function numberedLines(text: string): { n: string; line: string }[] | null {
  const lines = text.replace(/\n$/, '').split('\n');
  if (!NUMBERED.test(lines[0] ?? '')) return null;
  let matched = 0;
  const out = lines.map((l) => {
    const m = NUMBERED.exec(l);
    if (!m) return { n: '', line: l };
    matched++;
    return { n: m[1]!, line: m[2]! };
  });
  return matched >= 0.9 * lines.length ? out : null;
}

/**
 * A file as the Read tool returned it, its line numbers in a gutter (drawn by CSS, out of the text a reader
 * copies or searches) instead of `  12→` prefixes; other text as `renderOutput` shows it.
 */
export function renderNumbered(text: string): SafeHtml {
  const lines = numberedLines(text);
  if (!lines) return renderOutput(text);
  const row = (l: { n: string; line: string }) => html`<span class="ln" data-n="${l.n}"></span>${l.line}\n`;
  let size = 0;
  let shown = lines.length;
  for (let i = 0; i < lines.length; i++) {
    size += lines[i]!.line.length + 1;
    if (size > FULL_OUTPUT_CAP) {
      shown = i;
      break;
    }
  }
  if (lines.length <= OUTPUT_PREVIEW_LINES)
    return html`<pre class="out out--numbered">${lines.map(row)}</pre>`;
  const cut =
    shown < lines.length
      ? html`<p class="cut">${lines.length - shown} lines not shown: outputs are capped at ${formatSize(FULL_OUTPUT_CAP)}.</p>`
      : '';
  return html`<div class="clipped"><pre class="out out--numbered head">${lines.slice(0, OUTPUT_PREVIEW_LINES).map(row)}</pre><details class="more"><summary>Show all (${lines.length} lines)</summary><pre class="out out--numbered rest">${lines.slice(OUTPUT_PREVIEW_LINES, Math.max(shown, OUTPUT_PREVIEW_LINES)).map(row)}</pre>${cut}</details></div>`;
}
