import { createHash } from 'node:crypto';

/** Longest file or folder name cctrail builds from an id (before the extension). */
export const MAX_NAME_LENGTH = 100;

const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(?=\.|$)/i;

/** A short, stable hash of a string: 8 hex digits of its SHA-256. */
function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * Turns an id written by a transcript (a session id, a project slug) into a safe single path segment: only
 * `[A-Za-z0-9._-]`, no leading dot and no `..` (so never a hidden file or a parent folder), no Windows
 * device name, at most `MAX_NAME_LENGTH` characters, never empty. Ids that had to be changed or shortened get a hash suffix so different ids
 * stay different.
 *
 * @example sanitizeId('../../etc/passwd') // '______etc_passwd-<hash>'
 */
export function sanitizeId(id: string): string {
  let name = id
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/\.\.+/g, (dots) => '_'.repeat(dots.length))
    .replace(/^\./, '_')
    .replace(WINDOWS_DEVICE, '_$1');
  if (name.length === 0) name = '_';
  const changed = name !== id;
  if (name.length > MAX_NAME_LENGTH || changed) {
    const suffix = `-${shortHash(id)}`;
    name = name.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
  }
  return name;
}

/**
 * Hands out unique path segments for ids within one folder. Names are compared case-insensitively (macOS
 * and Windows file systems ignore case), and a second id that maps to a name already taken gets a short
 * hash suffix. Ask for ids in a stable order (sorted) so the same input always gives the same names.
 */
export class NameAllocator {
  readonly #byId = new Map<string, string>();
  readonly #taken = new Set<string>();

  /** Creates an allocator; `reserved` names (compared case-insensitively) are never handed out. */
  constructor(reserved: readonly string[] = []) {
    for (const name of reserved) this.#taken.add(name.toLowerCase());
  }

  /** The name for an id: the same id always gets the same name. */
  nameFor(id: string): string {
    const known = this.#byId.get(id);
    if (known !== undefined) return known;
    let name = sanitizeId(id);
    if (this.#taken.has(name.toLowerCase())) {
      const base = name.slice(0, MAX_NAME_LENGTH - 9);
      let salt = 0;
      do {
        name = `${base}-${shortHash(salt === 0 ? id : `${id}#${salt}`)}`;
        salt++;
      } while (this.#taken.has(name.toLowerCase()));
    }
    this.#taken.add(name.toLowerCase());
    this.#byId.set(id, name);
    return name;
  }
}
