import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The files under a folder, as `/`-separated paths relative to it (none when it does not exist), walked with an
 * explicit stack. Entries of the folder itself named in `skipTop` are left out, with everything below them.
 */
export function filesUnder(dir: string, skipTop: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop() as string;
    if (!existsSync(d)) continue;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (d === dir && skipTop.has(e.name)) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  }
  return out;
}
