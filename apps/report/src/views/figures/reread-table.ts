import type { RereadsAfterCompaction } from '@cctrail/core';
import { num, plural } from '../html/format.js';
import { html, type SafeHtml, trusted } from '../html/html.js';

/** Renders a list of re-reads as HTML tables, one per compaction with files read again (for the session page). */
export function rereadTable(rereads: readonly RereadsAfterCompaction[]): SafeHtml {
  const rows = rereads.filter((r) => r.files.length > 0);
  if (rows.length === 0) return trusted('');
  return html`${rows.map(
    (
      r,
    ) => html`<h3>After compaction into epoch ${r.epoch + 1}: ${plural(r.files.length, 'file')} read again, ≈${num(r.tokens)} tokens</h3>
<div class="table-wrap"><table class="data"><thead><tr><th scope="col">File</th><th scope="col" class="n">Reads before</th><th scope="col" class="n">Reads after</th><th scope="col" class="n">≈ Tokens</th></tr></thead><tbody>${r.files.map(
      (f) =>
        html`<tr><td class="path">${f.file}</td><td class="n">${f.readsBefore}</td><td class="n">${f.readsAfter}</td><td class="n">${num(f.tokens)}</td></tr>`,
    )}</tbody></table></div>`,
  )}`;
}
