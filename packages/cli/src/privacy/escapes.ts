/**
 * Escapes written as text, read as what they stand for: `\n`, `\t`, `\"`, `\u000a`, `\u001b` (a JSON string
 * printed raw, the raw text of an invalid line) and `%0A`, `%3D` (a URL). A token glued to one (`\nghp_…`,
 * `token%3Dghp_…`, `\"ghp_…\"`) has no edge as written; in the view it has. Secrets found in the view are replaced
 * in the text by their value, so the view need not keep the text's length.
 */

// Only escapes of whitespace, quotes, control characters and punctuation: those are the edges of secrets.
const ESCAPE = /\\(?:[ntr"'\\/]|u00[0-7][0-9A-Fa-f])|%[0-7][0-9A-Fa-f]/g;
const EDGE = /[\s\u0000-\u001f!-/:-@[-`{-~]/;
// Terminal codes, once `\u001b` is read (as `redact.ts` removes them from a string that holds them).
const ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/**
 * The view of a text with its escapes read, twice (JSON inside a JSON string writes a tab as `\\\\t`), or null when
 * it writes none.
 */
export function escapesAsText(text: string): string | null {
  const once = readOnce(text);
  return once === null ? null : (readOnce(once) ?? once);
}

function readOnce(text: string): string | null {
  if (text.indexOf('\\') === -1 && text.indexOf('%') === -1) return null;
  let changed = false;
  const view = text.replace(ESCAPE, (written) => {
    const c = decoded(written);
    if (!EDGE.test(c)) return written;
    changed = true;
    return c;
  });
  if (!changed) return null;
  return view.includes('\u001b') ? view.replace(ANSI_ESCAPE, '') : view;
}

function decoded(written: string): string {
  if (written[0] === '%') return String.fromCharCode(Number.parseInt(written.slice(1), 16));
  if (written[1] === 'u') return String.fromCharCode(Number.parseInt(written.slice(2), 16));
  const c = written[1]!;
  return c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c;
}
