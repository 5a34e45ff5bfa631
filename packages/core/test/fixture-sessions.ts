import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConversationInput, sessionDuplicates, statsDigest } from '../src/archive/index.js';
import { buildSession, type Session } from '../src/index.js';
import { discover, sessionSource } from '../src/node/index.js';

/** The repository's `fixtures/` folder. */
export const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

/**
 * Every session found under `dir`, its files named relative to `dir`, duplicates marked (as the archive does).
 *
 * @param content Keep entries' content (false: a lean read, as `stats` does).
 */
export async function loadSessions(dir: string, content = true): Promise<Session[]> {
  const found = await discover([dir]);
  const out: Session[] = [];
  for (const project of found.projects)
    for (const s of project.sessions)
      out.push(await buildSession(await sessionSource(s, (p) => relative(dir, p)), { content }));
  return out;
}

/** What the joins across files (conversations, teammates) read of each session. */
export function conversationInputs(sessions: readonly Session[]): ConversationInput[] {
  const duplicates = sessionDuplicates(sessions);
  return sessions.map((s, index) => {
    const digest = statsDigest(s);
    digest.stats.duplicateOf = duplicates[index]!;
    return { id: s.id, project: s.project.slug, title: s.title, digest };
  });
}
