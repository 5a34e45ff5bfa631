import {
  type ArchiveIndex,
  type Conversation,
  findConversations,
  linkTeammates,
} from '@cctrail/core/archive';
import type { Skeleton } from '../sessions/skeleton.js';

/**
 * The conversations that span several files, from the sessions' digests (core's `findConversations`): one
 * conversation per group of continued, resumed, forked or copied files. A file alone is its own conversation and
 * is not listed.
 *
 * @param sessions The run's sessions (duplicates marked).
 * @param titleOf The title of a session as the archive shows it (already redacted), by project and id.
 */
export function crossFileConversations(
  sessions: readonly Skeleton[],
  titleOf: (project: string | null, id: string) => string | null = () => null,
): Conversation[] {
  const inputs = sessions.map((s) => ({
    id: s.id,
    project: s.project,
    title: titleOf(s.project, s.id),
    digest: s.digest,
  }));
  return findConversations(inputs, { alone: false });
}

/**
 * Adds the conversations that span several files to an archive index, names each member session's conversation
 * on its line, and lists the named spawns joined to teammates' own files (`linkTeammates`). The index is changed
 * in place.
 *
 * @param index The archive's index.
 * @param sessions The skeletons of the sessions it lists.
 */
export function addConversations(index: ArchiveIndex, sessions: readonly Skeleton[]): void {
  const lines = new Map<string, ArchiveIndex['projects'][number]['sessions'][number]>();
  for (const project of index.projects)
    for (const line of project.sessions) lines.set(`${project.slug}\u0000${line.id}`, line);
  const key = (project: string | null, id: string) => `${project ?? ''}\u0000${id}`;
  const titleOf = (project: string | null, id: string) => lines.get(key(project, id))?.title ?? null;
  const teammates = linkTeammates(
    sessions.map((s) => ({ id: s.id, project: s.project, title: null, digest: s.digest })),
  );
  if (teammates.length > 0) index.teammates = teammates;
  const conversations = crossFileConversations(sessions, titleOf);
  if (conversations.length === 0) return;
  for (const conversation of conversations)
    for (const member of conversation.sessions) {
      const line = lines.get(key(member.project, member.id));
      if (line) line.conversation = conversation.id;
    }
  index.conversations = conversations;
}
