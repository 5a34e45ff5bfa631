import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { createGunzip } from 'node:zlib';
import { MANIFEST_FILE, type Manifest, readManifest, sha256File } from './manifest.js';
import { keptPath, SOURCES_FOLDER, SUPERSEDED_FOLDER } from './sources.js';

/**
 * `cctrail verify`'s checks of an archive folder against its manifest: every file listed is there with its size
 * and SHA-256; every kept source decompresses to the size and SHA-256 of the original; files cctrail keeps that
 * the manifest does not list are named. (That every kept source reads again to its archived session is checked
 * by re-exporting: see `commands/verify.ts`.)
 */

/** One problem found. */
export interface Problem {
  /** Path in the archive folder. */
  file: string;
  kind: 'missing' | 'corrupt' | 'unlisted';
  detail: string;
}

/** What the checks found. */
export interface ArchiveCheck {
  manifest: Manifest;
  files: number;
  sources: number;
  /** Bytes of original transcripts the kept sources hold. */
  sourceBytes: number;
  problems: Problem[];
}

/**
 * Checks the files of an archive against its manifest.
 *
 * @param dir The archive folder.
 * @returns What was checked and the problems, or null when the folder has no manifest.
 */
export async function checkArchive(dir: string): Promise<ArchiveCheck | null> {
  const present = await stat(join(dir, MANIFEST_FILE)).catch(() => null);
  if (!present?.isFile()) return null;
  const manifest = await readManifest(dir);
  const problems: Problem[] = [];
  for (const [file, check] of Object.entries(manifest.files)) {
    const path = safePath(dir, file);
    const info = path === null ? null : await stat(path).catch(() => null);
    if (path === null || !info?.isFile()) {
      problems.push({ file, kind: 'missing', detail: 'listed in the manifest, not in the folder' });
      continue;
    }
    if (info.size !== check.size || (await sha256File(path)) !== check.sha256)
      problems.push({ file, kind: 'corrupt', detail: 'its bytes differ from the checksum in the manifest' });
  }
  let sourceBytes = 0;
  for (const [shown, record] of Object.entries(manifest.sources)) {
    const path = safePath(dir, record.kept);
    if (path === null || problems.some((p) => p.file === record.kept)) continue;
    const content = await contentOf(path);
    sourceBytes += record.size;
    if (content === null)
      problems.push({ file: record.kept, kind: 'corrupt', detail: `not a readable gzip file (${shown})` });
    else if (content.size !== record.size || content.sha256 !== record.sha256)
      problems.push({
        file: record.kept,
        kind: 'corrupt',
        detail: `decompressed, it is not the ${record.size} bytes of ${shown} that were kept`,
      });
  }
  for (const file of await keptFiles(dir))
    if (manifest.files[file] === undefined)
      problems.push({ file, kind: 'unlisted', detail: 'not listed in the manifest' });
  return {
    manifest,
    files: Object.keys(manifest.files).length,
    sources: Object.keys(manifest.sources).length,
    sourceBytes,
    problems,
  };
}

function safePath(dir: string, file: string): string | null {
  try {
    return keptPath(dir, file);
  } catch {
    return null;
  }
}

/** The size and SHA-256 of a gzip file's content (every member), or null when it cannot be decompressed. */
async function contentOf(path: string): Promise<{ size: number; sha256: string } | null> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of createReadStream(path).pipe(createGunzip())) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  } catch {
    return null;
  }
  return { size, sha256: hash.digest('hex') };
}

/** The files under the folders cctrail keeps (`sessions/`, `sources/`, `superseded/`), as archive paths. */
async function keptFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const stack = ['sessions', SOURCES_FOLDER, SUPERSEDED_FOLDER].map((f) => join(dir, f));
  while (stack.length > 0) {
    const at = stack.pop()!;
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile() && !entry.name.includes('.tmp-'))
        out.push(relative(dir, path).split(sep).join('/'));
    }
  }
  return out.sort();
}
