/**
 * Rewrites every string inside a JSON value in place (object values and array items; keys only with `keys`),
 * walking with an explicit stack so deep values cannot overflow. Base64 image payloads are skipped.
 *
 * @param value An object or array (a session, an index).
 * @param rewrite Returns the new string and how many changes it made.
 * @param options `keys`: object keys are rewritten too (an object whose keys change keeps their order).
 * @returns The total number of changes.
 */
export function rewriteStrings(
  value: unknown,
  rewrite: (text: string) => { text: string; count: number },
  options: { keys?: boolean } = {},
): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i];
        if (typeof item === 'string') {
          const result = rewrite(item);
          if (result.count > 0) {
            node[i] = result.text;
            total += result.count;
          }
        } else if (item !== null && typeof item === 'object') stack.push(item);
      }
    } else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (options.keys) total += rewriteKeys(record, rewrite);
      const isImage = record.type === 'image' || record.type === 'base64';
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (typeof item === 'string') {
          if (isImage && key === 'data') continue;
          const result = rewrite(item);
          if (result.count > 0) {
            record[key] = result.text;
            total += result.count;
          }
        } else if (item !== null && typeof item === 'object') stack.push(item);
      }
    }
  }
  return total;
}

/** Rewrites the keys of one object, keeping their order; a key rewritten onto another key's name replaces it. */
function rewriteKeys(
  record: Record<string, unknown>,
  rewrite: (text: string) => { text: string; count: number },
): number {
  let total = 0;
  let renamed: [string, unknown][] | null = null;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const result = rewrite(key);
    if (result.count === 0 && renamed === null) continue;
    renamed ??= keys.slice(0, i).map((k) => [k, record[k]]);
    renamed.push([result.count > 0 ? result.text : key, record[key]]);
    total += result.count;
  }
  if (renamed === null) return 0;
  for (const key of keys) delete record[key];
  for (const [key, item] of renamed) record[key] = item;
  return total;
}
