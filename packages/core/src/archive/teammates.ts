/**
 * Teammates across files (FORMAT.md §13.2): each named spawn of a lead session whose agent ran in no file of that
 * session is joined to the teammate's own top-level session file of the same project. The teammate stays a
 * session of its own (its usage is counted there, once); the link only references it from the lead's spawn.
 *
 * Matching: the teammate's `agentName` equals the spawn's `name`, its `teamName` the spawn's `team_name` when both
 * are written, and when the spawn's result names `<name>@session-<8hex>`, the 8 hex digits begin the teammate's
 * session id or the lead's (sources differ on which session the suffix names). Among the candidates, the first
 * teammate file that starts at or after the spawn wins; each teammate file answers one spawn.
 */
import type { TeammateLink } from '../model/teammate.js';
import type { ConversationInput } from './conversation-input.js';
import { usageAndCost } from './response-totals.js';

/**
 * Links the named spawns of an archive's sessions to the teammates' own session files.
 *
 * @param sessions Sessions of one archive, with their digests.
 * @returns One link per joined spawn, in the order of the lead sessions and their spawns.
 */
export function linkTeammates(sessions: readonly ConversationInput[]): TeammateLink[] {
  const teammates = sessions.filter((s) => s.digest.conversation?.teammates?.self);
  if (teammates.length === 0) return [];
  const taken = new Set<ConversationInput>();
  const links: TeammateLink[] = [];
  for (const lead of sessions) {
    for (const spawn of lead.digest.conversation?.teammates?.spawns ?? []) {
      const suffix = spawn.agentRef?.split('@session-')[1]?.toLowerCase() ?? null;
      const candidates = teammates.filter((t) => {
        const self = t.digest.conversation!.teammates!.self!;
        return (
          t !== lead &&
          !taken.has(t) &&
          t.project === lead.project &&
          self.name === spawn.name &&
          (self.team === null || spawn.team === null || self.team === spawn.team) &&
          (suffix === null ||
            t.id.toLowerCase().startsWith(suffix) ||
            lead.id.toLowerCase().startsWith(suffix))
        );
      });
      const start = (t: ConversationInput) => t.digest.stats.startedAt ?? '';
      candidates.sort((a, b) => (start(a) < start(b) ? -1 : start(a) > start(b) ? 1 : 0));
      const teammate =
        candidates.find((t) => spawn.timestamp === null || start(t) >= spawn.timestamp) ?? candidates[0];
      if (!teammate) continue;
      taken.add(teammate);
      links.push(link(lead, spawn, teammate));
    }
  }
  return links;
}

type Spawn = NonNullable<
  NonNullable<ConversationInput['digest']['conversation']>['teammates']
>['spawns'][number];

function link(lead: ConversationInput, spawn: Spawn, teammate: ConversationInput): TeammateLink {
  const self = teammate.digest.conversation!.teammates!.self!;
  const { stats } = teammate.digest;
  return {
    project: lead.project,
    lead: lead.id,
    sidechain: spawn.sidechain,
    toolUseId: spawn.toolUseId,
    name: spawn.name,
    team: spawn.team ?? self.team,
    agentRef: spawn.agentRef,
    session: teammate.id,
    status: self.status,
    startedAt: stats.startedAt,
    endedAt: stats.endedAt,
    durationMs:
      stats.startedAt && stats.endedAt ? Date.parse(stats.endedAt) - Date.parse(stats.startedAt) : null,
    result: self.result,
    ...usageAndCost([teammate]),
  };
}
