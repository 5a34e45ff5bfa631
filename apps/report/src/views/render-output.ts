import { clip, formatSize, html, type SafeHtml } from './html.js';

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
