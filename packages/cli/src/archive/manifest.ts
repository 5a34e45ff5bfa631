import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeIfChanged } from '../files/atomic-write.js';
import { cliVersion } from '../version.js';
import { keptPath, SOURCES_FOLDER, type SourceRecord, SUPERSEDED_FOLDER } from './sources.js';

/**
 * `DIR/manifest.json`: what an archive folder holds, so that it can be checked (`cctrail verify`) and read again
 * years later: every kept source with its original size and SHA-256, and a checksum of every file the archive
 * wrote (the index, the session files, the kept sources and their superseded versions). Written last, after
 * `index.json`.
 */

/** The manifest's file name. */
export const MANIFEST_FILE = 'manifest.json';

/** A file's size and SHA-256. */
export interface FileCheck {
  size: number;
  sha256: string;
}

/** What `manifest.json` holds. */
export interface Manifest {
  schemaVersion: 1;
  generator: { name: 'cctrail'; version: string };
  /** Kept sources by their path as shown (`<project>/<id>.jsonl`). */
  sources: Record<string, SourceRecord>;
  /** Every file the archive wrote, by its `/`-separated path in the folder. */
  files: Record<string, FileCheck>;
  /**
   * False for an archive of sources only (`export --sources-only`): its index lines name the session files a
   * full export would write, and there are none.
   */
  sessionFiles?: false;
}

/** An empty manifest. */
function emptyManifest(): Manifest {
  // Keys are paths read from disk: records without a prototype, so no name is special.
  return {
    schemaVersion: 1,
    generator: { name: 'cctrail', version: cliVersion() },
    sources: Object.create(null) as Manifest['sources'],
    files: Object.create(null) as Manifest['files'],
  };
}

/**
 * Reads an archive's manifest; a missing or damaged one (an archive of cctrail before 0.2, or someone's file)
 * reads as empty, entries of a wrong shape are dropped.
 *
 * @param dir The archive folder.
 */
export async function readManifest(dir: string): Promise<Manifest> {
  const manifest = emptyManifest();
  let value: unknown;
  try {
    value = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'));
  } catch {
    return manifest;
  }
  const read = value as Partial<Manifest> | null;
  if (read?.schemaVersion !== 1) return manifest;
  if (read.sessionFiles === false) manifest.sessionFiles = false;
  for (const [shown, record] of entries(read.sources)) {
    const r = record as Partial<SourceRecord> | null;
    // A record names only its own kept file and superseded versions: a manifest is read from archives given as
    // input too, and its paths decide what is copied and, with --prune, removed.
    if (
      r?.kept === `${SOURCES_FOLDER}/${shown}.gz` &&
      (r.superseded === undefined ||
        (Array.isArray(r.superseded) &&
          r.superseded.every(
            (v) => typeof v === 'string' && v.startsWith(`${SUPERSEDED_FOLDER}/${shown}.`),
          ))) &&
      typeof r.size === 'number' &&
      typeof r.sha256 === 'string' &&
      typeof r.mtimeMs === 'number' &&
      typeof r.origin === 'string' &&
      typeof r.seenAt === 'string'
    )
      manifest.sources[shown] = r as SourceRecord;
  }
  for (const [file, check] of entries(read.files)) {
    const c = check as Partial<FileCheck> | null;
    if (typeof c?.size === 'number' && typeof c.sha256 === 'string')
      manifest.files[file] = { size: c.size, sha256: c.sha256 };
  }
  return manifest;
}

function entries(value: unknown): [string, unknown][] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
}

/**
 * Checks every file the archive holds: a file of the size recorded and not modified since the manifest was
 * written keeps its checksum, any other is hashed again.
 *
 * @param dir The archive folder.
 * @param files The files, by path in the folder.
 * @param known The checks of the previous manifest.
 */
export async function checkFiles(
  dir: string,
  files: Iterable<string>,
  known: Readonly<Record<string, FileCheck>>,
): Promise<Record<string, FileCheck>> {
  const since = (await stat(join(dir, MANIFEST_FILE)).catch(() => null))?.mtimeMs ?? Number.NEGATIVE_INFINITY;
  const out = Object.create(null) as Record<string, FileCheck>;
  for (const file of [...new Set(files)].sort()) {
    const path = keptPath(dir, file);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) continue;
    const before = known[file];
    out[file] =
      before && before.size === info.size && info.mtimeMs < since
        ? before
        : { size: info.size, sha256: await sha256File(path) };
  }
  return out;
}

/** The SHA-256 of a file, read as a stream. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Writes the manifest (atomically, only when it changed), sources and files sorted by path.
 *
 * @param dir The archive folder.
 * @param manifest The manifest.
 */
export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const sorted = emptyManifest();
  if (manifest.sessionFiles === false) sorted.sessionFiles = false;
  for (const key of Object.keys(manifest.sources).sort()) sorted.sources[key] = manifest.sources[key]!;
  for (const key of Object.keys(manifest.files).sort()) sorted.files[key] = manifest.files[key]!;
  await writeIfChanged(join(dir, MANIFEST_FILE), `${JSON.stringify(sorted, null, 1)}\n`);
}
