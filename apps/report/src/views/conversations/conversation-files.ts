import type { ConversationMember } from '@cctrail/core/archive';

/**
 * How a conversation's page names its files: many files of one conversation share its title, so each is named by
 * its role in the conversation, its start and a detail that tells it apart (its own title when that differs from
 * the others', else its entry count), never by its id alone.
 */

/** A file's role in its conversation. */
export type FileRole = 'original' | 'continues' | 'resumed' | 'copy';

/** What a file's name is made of besides its place in the conversation. */
export interface FileFacts {
  id: string;
  title: string;
  entries: number;
  startedAt: string | null;
}

/** A file of a conversation as its page names it. */
export interface NamedFile {
  role: FileRole;
  /** `original · 2026-01-05 14:02 · 412 entries`. */
  name: string;
}

/** The role of a file: a copy (`/branch` or whole duplicate), a continuation (compaction, summary), a resume, or the original. */
export function fileRole(m: ConversationMember): FileRole {
  if (m.duplicateOf || m.forkedFrom) return 'copy';
  if (m.continuedFrom?.kind === 'resume') return 'resumed';
  if (m.continuedFrom) return 'continues';
  return 'original';
}

const minute = (iso: string | null): string => (iso ? iso.replace('T', ' ').slice(0, 16) : 'undated');

/**
 * Names the files of a conversation. The detail is the file's title when no other file has it, else its entry
 * count; a name still shared gets the start of its id.
 *
 * @param members The conversation's files.
 * @param factsOf A file's title, entries and start.
 */
export function nameFiles(
  members: readonly ConversationMember[],
  factsOf: (id: string) => FileFacts,
): Map<string, NamedFile> {
  const facts = members.map((m) => ({ m, f: factsOf(m.id), role: fileRole(m) }));
  const titles = new Map<string, number>();
  for (const { f } of facts) titles.set(f.title, (titles.get(f.title) ?? 0) + 1);
  const base = facts.map(({ m, f, role }) => {
    const detail =
      titles.get(f.title) === 1 ? clipWords(f.title, 48) : `${f.entries.toLocaleString('en-US')} entries`;
    return { id: m.id, role, name: `${role} · ${minute(f.startedAt ?? m.startedAt)} · ${detail}` };
  });
  const seen = new Map<string, number>();
  for (const b of base) seen.set(b.name, (seen.get(b.name) ?? 0) + 1);
  return new Map(
    base.map((b) => [
      b.id,
      { role: b.role, name: (seen.get(b.name) ?? 0) > 1 ? `${b.name} · ${b.id.slice(0, 8)}` : b.name },
    ]),
  );
}

/** The first words of a text, cut at a word boundary to at most `max` characters. */
function clipWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
