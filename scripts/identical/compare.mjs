// Byte-by-byte comparison of two runs of the CLI: their output folders (file lists and contents), their stdout,
// stderr and exit codes. Used by `scripts/check-identical.mjs`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every file under `dir`, as sorted paths relative to it (`/`-separated); an absent folder has none.
 * @param {string} dir
 * @returns {string[]}
 */
export function listFiles(dir) {
  let names;
  try {
    names = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return names
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1))
    .map((name) => name.split('\\').join('/'))
    .sort();
}

/**
 * Where two buffers first differ, shown as the line around that byte in each; null when they are equal.
 * @param {Buffer} a
 * @param {Buffer} b
 * @returns {string | null}
 */
export function firstDifference(a, b) {
  if (a.equals(b)) return null;
  let at = 0;
  const common = Math.min(a.length, b.length);
  while (at < common && a[at] === b[at]) at++;
  const excerpt = (buffer) => {
    const start = Math.max(buffer.lastIndexOf(10, at - 1) + 1, at - 80);
    const newline = buffer.indexOf(10, at);
    const end = Math.min(newline < 0 ? buffer.length : newline, at + 80);
    return JSON.stringify(buffer.subarray(start, end).toString('utf8'));
  };
  const line = a.subarray(0, at).toString('utf8').split('\n').length;
  return (
    `first difference at byte ${at} (line ${line}); sizes ${a.length} and ${b.length}\n` +
    `      ref: ${excerpt(a)}\n      new: ${excerpt(b)}`
  );
}

/**
 * The differences between two output folders: files only on one side, then files whose bytes differ.
 * `mask(relativePath, bytes)` may rewrite what is known to differ by design before the comparison.
 * @param {string} refDir
 * @param {string} newDir
 * @param {(name: string, bytes: Buffer) => Buffer} [mask]
 * @returns {string[]}
 */
export function compareTrees(refDir, newDir, mask = (_name, bytes) => bytes) {
  const refFiles = listFiles(refDir);
  const newFiles = listFiles(newDir);
  const inNew = new Set(newFiles);
  const inRef = new Set(refFiles);
  const differences = [];
  for (const name of refFiles) if (!inNew.has(name)) differences.push(`${name}: only in ref`);
  for (const name of newFiles) if (!inRef.has(name)) differences.push(`${name}: only in new`);
  for (const name of refFiles) {
    if (!inNew.has(name)) continue;
    const found = firstDifference(
      mask(name, readFileSync(join(refDir, name))),
      mask(name, readFileSync(join(newDir, name))),
    );
    if (found) differences.push(`${name}: ${found}`);
  }
  return differences;
}

/**
 * The differences between two runs of one command: exit code, stdout, stderr (paths already made alike by the
 * caller) and, when both wrote one, the output folder.
 * @param {{status: number | null, stdout: Buffer, stderr: Buffer, out?: string}} ref
 * @param {{status: number | null, stdout: Buffer, stderr: Buffer, out?: string}} fresh
 * @param {(name: string, bytes: Buffer) => Buffer} [mask]
 * @returns {string[]}
 */
export function compareRuns(ref, fresh, mask) {
  const differences = [];
  if (ref.status !== fresh.status) differences.push(`exit code: ref ${ref.status}, new ${fresh.status}`);
  for (const stream of ['stdout', 'stderr']) {
    const found = firstDifference(ref[stream], fresh[stream]);
    if (found) differences.push(`<${stream}>: ${found}`);
  }
  if (ref.out && fresh.out) differences.push(...compareTrees(ref.out, fresh.out, mask));
  return differences;
}

/**
 * The export state file keeps a fingerprint of each session's inputs that includes a hash of the built code
 * (`packages/cli/scripts/build-id.mjs`): it differs between any two builds by design, so it is masked.
 * @param {string} name
 * @param {Buffer} bytes
 * @returns {Buffer}
 */
export function maskBuildDependent(name, bytes) {
  if (!name.endsWith('.cctrail-state.json')) return bytes;
  return Buffer.from(bytes.toString('utf8').replace(/("fingerprint": *")[0-9a-f]+"/g, '$1…"'));
}
