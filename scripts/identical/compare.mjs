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
    // (lastIndexOf from -1 would search from the end of the buffer.)
    const start = at === 0 ? 0 : Math.max(buffer.lastIndexOf(10, at - 1) + 1, at - 80);
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
 * The files of two output folders that differ: on one side only (the other side's bytes null), or in their
 * bytes. `mask(relativePath, bytes)` may rewrite what is known to differ by design before the comparison.
 * @param {string} refDir
 * @param {string} newDir
 * @param {(name: string, bytes: Buffer) => Buffer} [mask]
 * @returns {{ name: string, ref: Buffer | null, fresh: Buffer | null }[]}
 */
function differingFiles(refDir, newDir, mask = (_name, bytes) => bytes) {
  const refFiles = listFiles(refDir);
  const newFiles = listFiles(newDir);
  const inNew = new Set(newFiles);
  const inRef = new Set(refFiles);
  const read = (dir, name) => mask(name, readFileSync(join(dir, name)));
  const found = [];
  for (const name of refFiles)
    if (!inNew.has(name)) found.push({ name, ref: read(refDir, name), fresh: null });
  for (const name of newFiles)
    if (!inRef.has(name)) found.push({ name, ref: null, fresh: read(newDir, name) });
  for (const name of refFiles) {
    if (!inNew.has(name)) continue;
    const [ref, fresh] = [read(refDir, name), read(newDir, name)];
    if (!ref.equals(fresh)) found.push({ name, ref, fresh });
  }
  return found;
}

/**
 * What differs between two runs of one command: stdout and stderr (paths already made alike by the caller) as
 * `<stdout>` and `<stderr>`, then, when both wrote one, the files of the output folder.
 * @param {{status: number | null, stdout: Buffer, stderr: Buffer, out?: string}} ref
 * @param {{status: number | null, stdout: Buffer, stderr: Buffer, out?: string}} fresh
 * @param {(name: string, bytes: Buffer) => Buffer} [mask]
 * @returns {{ name: string, ref: Buffer | null, fresh: Buffer | null }[]}
 */
export function differingOutputs(ref, fresh, mask) {
  const found = [];
  for (const stream of ['stdout', 'stderr']) {
    if (!ref[stream].equals(fresh[stream]))
      found.push({ name: `<${stream}>`, ref: ref[stream], fresh: fresh[stream] });
  }
  if (ref.out && fresh.out) found.push(...differingFiles(ref.out, fresh.out, mask));
  return found;
}

/** One difference as a line: a file on one side only, or where its bytes first differ. */
function describe({ name, ref, fresh }) {
  if (!fresh) return `${name}: only in ref`;
  if (!ref) return `${name}: only in new`;
  return `${name}: ${firstDifference(ref, fresh)}`;
}

/**
 * The differences between two output folders: files only on one side, then files whose bytes differ.
 * @param {string} refDir
 * @param {string} newDir
 * @param {(name: string, bytes: Buffer) => Buffer} [mask]
 * @returns {string[]}
 */
export function compareTrees(refDir, newDir, mask) {
  return differingFiles(refDir, newDir, mask).map(describe);
}

/**
 * The differences between two runs of one command: exit code, stdout, stderr and, when both wrote one, the
 * output folder.
 * @param {{status: number | null, stdout: Buffer, stderr: Buffer, out?: string}} ref
 * @param {{status: number | null, stdout: Buffer, stderr: Buffer, out?: string}} fresh
 * @param {(name: string, bytes: Buffer) => Buffer} [mask]
 * @returns {string[]}
 */
export function compareRuns(ref, fresh, mask) {
  const differences = [];
  if (ref.status !== fresh.status) differences.push(`exit code: ref ${ref.status}, new ${fresh.status}`);
  differences.push(...differingOutputs(ref, fresh, mask).map(describe));
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
