import { createHash } from 'node:crypto';

/**
 * Slugs for paths and URLs. Agent types, project and session ids come from transcripts: they are reduced to
 * `[a-z0-9-_.]`, and names that map to the same slug (compared case-insensitively) get a hash suffix so
 * that no page ever overwrites another.
 */

/** A short stable hash of a string (8 hex digits of SHA-1). */
export function shortHash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 8);
}

/**
 * Reduces a name to `[a-z0-9-_.]`, at most `max` characters, never empty, never starting with a dot and never
 * a Windows device name.
 */
export function slugify(name: string, max = 64): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9\-_.]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, max)
    .replace(/[-.]+$/g, '');
  if (slug === '') return 'x';
  // Windows refuses files and folders named after devices (`con`, `nul.txt`, `com1`).
  return WINDOWS_DEVICE.test(slug) ? `_${slug}` : slug;
}

const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com\d|lpt\d)(?:\.|$)/;

/**
 * Gives each name a unique slug, in input order. Names whose slugs collide (case-insensitively) all get a
 * `-<hash>` suffix, so the result does not depend on which one came first; equal names get an index too.
 * @example uniqueSlugs(['My Project', 'my-project']) // ['my-project-1a2b3c4d', 'my-project-5e6f7a8b']
 */
export function uniqueSlugs(names: readonly string[], max = 64): string[] {
  const base = names.map((n) => slugify(n, max));
  const counts = new Map<string, number>();
  for (const b of base) counts.set(b.toLowerCase(), (counts.get(b.toLowerCase()) ?? 0) + 1);
  const used = new Set<string>();
  return base.map((b, i) => {
    const name = names[i] ?? '';
    let slug = (counts.get(b.toLowerCase()) ?? 0) > 1 ? `${b}-${shortHash(name)}` : b;
    for (let n = 2; used.has(slug.toLowerCase()); n++) slug = `${b}-${shortHash(`${name}\u0000${n}`)}`;
    used.add(slug.toLowerCase());
    return slug;
  });
}
