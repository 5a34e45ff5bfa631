/**
 * Escapes written as text, read as what they stand for: `\n`, `\t`, `\r`, `\u000a` (a JSON string or a log
 * line printed raw) and `%0A`, `%3D` (a URL). A token glued to one (`\nghp_…`, `token%3Dghp_…`) has no word
 * edge before it as written; in the view it has. The view has the text's length (each escape becomes spaces
 * and the character it stands for, last), so a secret found in it has the same value as in the text.
 */

// Only escapes of whitespace and punctuation: those are the edges of secrets.
const ESCAPE = /\\[ntr]|\\u00[0-7][0-9A-Fa-f]|%[0-7][0-9A-Fa-f]/g;
const EDGE = /[\s!-/:-@[-`{-~]/;

/** The view of a text with its escapes read, or null when it writes none. */
export function escapesAsText(text: string): string | null {
  if (text.indexOf('\\') === -1 && text.indexOf('%') === -1) return null;
  let changed = false;
  const view = text.replace(ESCAPE, (written) => {
    const c = decoded(written);
    if (!EDGE.test(c)) return written;
    changed = true;
    return ' '.repeat(written.length - 1) + (c === '\t' || c === '\r' ? ' ' : c);
  });
  return changed ? view : null;
}

function decoded(written: string): string {
  if (written[0] === '%') return String.fromCharCode(Number.parseInt(written.slice(1), 16));
  if (written[1] === 'u') return String.fromCharCode(Number.parseInt(written.slice(2), 16));
  return written[1] === 'n' ? '\n' : written[1] === 't' ? '\t' : '\r';
}
