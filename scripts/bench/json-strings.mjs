// Every string value and object key of parsed JSON values, as redaction's walk visits them (image data left out):
// what the redaction benchmarks (`redaction.mjs`, `../privacy/walk-bench.mjs`) feed the engine.

/**
 * @param {unknown[]} values Parsed JSON values.
 * @param {string[]} [out] Where to add them (a new list by default).
 * @returns {string[]} `out`, with the strings and keys of every value added (each value's own in depth-first order).
 */
export function stringsOf(values, out = []) {
  const stack = [];
  for (const value of values) {
    stack.push(value);
    while (stack.length > 0) {
      const node = stack.pop();
      if (typeof node === 'string') out.push(node);
      else if (Array.isArray(node)) for (const item of node) stack.push(item);
      else if (node !== null && typeof node === 'object') {
        const image = node.type === 'image' || node.type === 'base64';
        for (const key of Object.keys(node)) {
          out.push(key);
          if (!(image && key === 'data')) stack.push(node[key]);
        }
      }
    }
  }
  return out;
}
