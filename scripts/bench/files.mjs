// Files for the benchmarks: generated datasets (cached under .bench/), folder sizes, a warm page cache.

import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { GENERATOR_VERSION, generateCorpus } from './generate.mjs';

/**
 * The projects folder of a generated dataset, made again when the generator or the options changed.
 * @param work the benchmarks' folder (`.bench/`)
 */
export async function dataset(work, name, options, log) {
  const dir = join(work, name);
  const marker = join(dir, '.complete');
  const made = JSON.stringify({ generator: GENERATOR_VERSION, ...options });
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== made) {
    rmSync(dir, { recursive: true, force: true });
    log(
      `generating ${name} (${options.profile} profile, ${options.totalMb} MB in ${options.sessions} sessions)`,
    );
    await generateCorpus(join(dir, 'projects'), options);
    writeFileSync(marker, made);
  }
  return join(dir, 'projects');
}

/** Bytes below a path. */
export function sizeOf(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** Session files (`<id>.jsonl`, agent files excluded) directly in the project folders of a projects folder. */
export function sessionFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((project) =>
      readdirSync(join(dir, project))
        .filter((f) => f.endsWith('.jsonl') && !f.startsWith('agent-'))
        .sort()
        .map((f) => join(dir, project, f)),
    );
}

/**
 * Reads every file below a folder, so that the next timed run finds it in the page cache. This machine's kernel
 * reclaims cold page cache on its own (DAMON), so without it a run may read from disk or not, by chance; each
 * contender gets the same warm start.
 */
export function warm(dir) {
  const stack = [dir];
  const buffer = Buffer.allocUnsafe(1 << 20);
  while (stack.length) {
    const at = stack.pop();
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) {
        stack.push(path);
        continue;
      }
      const fd = openSync(path, 'r');
      while (readSync(fd, buffer, 0, buffer.length, null) > 0);
      closeSync(fd);
    }
  }
}
