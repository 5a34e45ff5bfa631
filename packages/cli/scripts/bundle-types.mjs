// The types of the `cctrail` package's entry point (see `bundle.mjs`): the declaration files `tsc` wrote for
// `index.ts` and the modules its types come from, copied beside the bundle without their source maps; no others.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Copies `index.d.ts` and the declaration files it imports, transitively, from `from` to `to` (same layout).
 * A type imported from a package other than Node's is reported: the installed package cannot resolve it.
 *
 * @param {string} from The folder `tsc` wrote to.
 * @param {string} to The bundle's folder.
 */
export function copyPublicTypes(from, to) {
  const seen = new Set();
  const stack = [join(from, 'index.d.ts')];
  while (stack.length > 0) {
    const file = /** @type {string} */ (stack.pop());
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\()\s*['"]([^'"]+)['"]/g)) {
      const spec = match[1] ?? '';
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec.replace(/\.js$/, '.d.ts')));
      else if (!spec.startsWith('node:') && spec !== 'cctrail')
        console.warn(`cctrail bundle: the public types import ${spec}, which the package does not ship`);
    }
  }
  for (const file of seen) {
    const target = join(to, relative(from, file));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
  }
}
