import { type ConversationInput, findConversations, linkTeammates, statsDigest } from '@cctrail/core/archive';
import type { ArchiveIndex, Session } from '../../src/views/model.js';

/**
 * What an export writes into `index.json` once every session is built: the conversations of several files, the
 * teammates' links, and each session line's conversation (for `writeArchive`'s `extra`).
 */
export function linkSessions(index: ArchiveIndex, projects: { id: string; sessions: Session[] }[]): void {
  const inputs: ConversationInput[] = projects.flatMap((p) =>
    p.sessions.map((s) => ({ id: s.id, project: p.id, title: s.title, digest: statsDigest(s) })),
  );
  const conversations = findConversations(inputs).filter((c) => c.sessions.length > 1);
  index.conversations = conversations;
  index.teammates = linkTeammates(inputs);
  for (const project of index.projects)
    for (const line of project.sessions) {
      const c = conversations.find((x) => x.sessions.some((m) => m.id === line.id));
      if (c) line.conversation = c.id;
    }
}
