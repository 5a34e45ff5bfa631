/**
 * Many ids as one string: the entry uuids and tool call ids of a statistics digest. A digest lives as long as the
 * run that holds it (every session's, at once), and is parsed from JSON text or sent between threads: one string
 * a list costs one object where an array of ids costs one per id. Steps that need the ids split them, and drop
 * them when done.
 */

/**
 * Ids as one string: each id with its backslashes and spaces escaped (`\\`, `\s`), followed by a space (a
 * character JSON text holds as it is: a newline would be written `\n`, and parsed on the slow path). Empty for no id.
 */
export type IdList = string;

const NEEDS_ESCAPE = /[\\ ]/;
const ESCAPED = /\\([\\s])/g;

/**
 * The list of ids, in their order.
 *
 * @param ids Any strings (escaped where needed).
 */
export function idList(ids: readonly string[]): IdList {
  if (ids.length === 0) return '';
  const escaped = ids.some((id) => NEEDS_ESCAPE.test(id)) ? ids.map(escapeId) : ids;
  return `${escaped.join(' ')} `;
}

/**
 * The ids of a list (or of an array, as it is), in their order.
 *
 * @param list As `idList` made it.
 */
export function idsOf(list: IdList | readonly string[]): readonly string[] {
  if (typeof list !== 'string') return list;
  if (list === '') return [];
  const ids = list.split(' ');
  ids.pop();
  return list.includes('\\') ? ids.map(unescapeId) : ids;
}

/**
 * The first id of a list, or undefined when it holds none.
 *
 * @param list As `idList` made it.
 */
export function firstId(list: IdList): string | undefined {
  if (list === '') return undefined;
  const first = list.slice(0, list.indexOf(' '));
  return first.includes('\\') ? unescapeId(first) : first;
}

function escapeId(id: string): string {
  return id.replaceAll('\\', '\\\\').replaceAll(' ', '\\s');
}

function unescapeId(id: string): string {
  return id.replace(ESCAPED, (_, c: string) => (c === 's' ? ' ' : '\\'));
}
