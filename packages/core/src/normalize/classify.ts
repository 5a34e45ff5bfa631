/** What an entry is (`EntryKind`) and who speaks in it, decided from its type, flags and content. */
import type { Entry, EntryKind } from '../model/entry.js';
import type { RawRecord } from '../read/records.js';
import { firstText } from './prompt-text.js';

/** Decides what an entry is from its type, flags and content. */
export function classify(entry: Entry, record: RawRecord): EntryKind {
  const { type, subtype, content } = entry;
  switch (type) {
    case 'user':
    case 'human': {
      if (entry.isCompactSummary) return 'compact-summary';
      if (content.some((b) => b.type === 'tool_result')) return 'tool-result';
      if (entry.isMeta) return 'meta';
      const text = firstText(content);
      if (text !== null) {
        const trimmed = text.trimStart();
        if (trimmed.startsWith('[Request interrupted by user')) return 'interrupt';
        if (
          /^<(command-name|command-message|local-command-stdout|local-command-stderr|bash-input|bash-stdout|bash-stderr)>/.test(
            trimmed,
          )
        ) {
          return 'command';
        }
        if (/^<(local-command-caveat|system-reminder|task-notification)>/.test(trimmed)) return 'meta';
      }
      return 'prompt';
    }
    case 'assistant':
    case 'thinking':
    case 'tool_use':
      return entry.isApiError ? 'api-error' : 'assistant';
    case 'tool_result':
      return 'tool-result';
    case 'system':
      if (subtype === 'compact_boundary') return 'compact-boundary';
      if (subtype === 'microcompact_boundary') return 'microcompact-boundary';
      if (subtype === 'api_error') return 'api-error';
      if (subtype === 'local_command') return 'command';
      return 'system';
    case 'compact_system':
      return subtype === 'conversation_compacted' ? 'compact-boundary' : 'system';
    case 'compact_prelude':
      return record.parentUuid === null || record.parentUuid === undefined ? 'compact-boundary' : 'system';
    case 'compact_recap':
      return 'compact-summary';
    case 'progress':
      return 'progress';
    case 'attachment':
      return 'attachment';
    default:
      return 'unknown';
  }
}

/** The actor of an entry in the main conversation; sidechains adjust it (`analyses/sidechains.ts`). */
export function baseActor(kind: EntryKind): Entry['actor'] {
  switch (kind) {
    case 'prompt':
    case 'interrupt':
    case 'command':
      return 'human';
    case 'assistant':
    case 'api-error':
      return 'claude';
    case 'tool-result':
      return 'tool';
    default:
      return 'system';
  }
}
