/** The normalized entry: one line of a transcript with a uuid, and the metadata lines without one. */

/** Where a record came from: the file as given, its 1-based line and the byte range of that line. */
export interface SourceRef {
  /** Path of the transcript file, as given to the reader (the CLI makes it relative to the input root). */
  file: string;
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** Length of the line in bytes, without the newline. */
  length: number;
  /** For records glued on one line: the record's index on that line (0 for the first). */
  part?: number;
}

/** Who speaks in an entry, with the role reversal of sidechains resolved. */
export type Actor =
  /** The person at the keyboard. */
  | 'human'
  /** The main model. */
  | 'claude'
  /** A sub-agent answering inside a sidechain. */
  | 'subagent'
  /** Claude speaking as the sub-agent's user (the `user` lines of a sidechain). */
  | 'claude-as-user'
  /** A tool returning its result. */
  | 'tool'
  /** Claude Code itself: hooks, system lines, progress, attachments, injected text. */
  | 'system';

/** What an entry is, decided from its content rather than its record type. */
export type EntryKind =
  | 'prompt'
  | 'assistant'
  | 'tool-result'
  | 'meta'
  | 'command'
  | 'interrupt'
  | 'compact-summary'
  | 'compact-boundary'
  | 'microcompact-boundary'
  | 'api-error'
  | 'system'
  | 'progress'
  | 'attachment'
  | 'unknown';

/** One item of a tool result's content. */
export type ToolResultItem =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: string | null; data: string | null; bytes: number }
  | { type: 'unknown'; value: unknown };

/** A normalized content block. Fields of a known block type that we do not model are kept in `extra`. */
export type ContentBlock =
  | { type: 'text'; text: string; extra?: Record<string, unknown> }
  | { type: 'thinking'; thinking: string; signature: string | null; extra?: Record<string, unknown> }
  | { type: 'tool_use'; id: string; name: string; input: unknown; extra?: Record<string, unknown> }
  | { type: 'tool_result'; toolUseId: string; isError: boolean; content: ToolResultItem[] }
  /** `data` is the base64 payload (null when not stored); `bytes` its decoded size estimate. */
  | { type: 'image'; mediaType: string | null; data: string | null; bytes: number }
  /** A block of a type we do not know, kept verbatim. */
  | { type: 'unknown'; value: unknown };

/** Token usage, summed over distinct API responses. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  /** Part of cache creation written with a 5-minute lifetime, when the transcript splits it. */
  cacheCreation5mTokens: number;
  /** Part of cache creation written with a 1-hour lifetime, when the transcript splits it. */
  cacheCreation1hTokens: number;
  /** Number of distinct API responses counted. */
  responses: number;
  /**
   * Web searches the API ran for the responses (`usage.server_tool_use.web_search_requests`), when there were
   * any: billed per search, apart from tokens (see `WebSearchCost`).
   */
  webSearchRequests?: number;
}

/** The API response an assistant entry belongs to. */
export interface MessageInfo {
  /** `message.id` (`msg_…`): shared by every line of one split response. */
  id: string | null;
  requestId: string | null;
  model: string | null;
  stopReason: string | null;
}

/** Where a sidechain is stored on disk. */
export type SidechainStorage = 'inline' | 'flat' | 'subagents';

/** One node of the session DAG: one JSONL line with a uuid. */
export interface Entry {
  uuid: string;
  /** Record type as written: `user`, `assistant`, `system`, `progress`, `attachment`, or a seed variant. */
  type: string;
  /** `subtype` as written (system lines, seed variants), or the data/attachment type of progress/attachment lines. */
  subtype: string | null;
  kind: EntryKind;
  actor: Actor;
  /** `parentUuid` exactly as written. */
  parentUuid: string | null;
  /** Parent in the built DAG: null for roots, orphans and broken cycles; for a sidechain root, its spawning entry. */
  parent: string | null;
  /** `logicalParentUuid` as written (compaction boundaries). */
  logicalParentUuid: string | null;
  timestamp: string | null;
  sessionId: string | null;
  version: string | null;
  cwd: string | null;
  gitBranch: string | null;
  /** `isSidechain` as written. */
  isSidechain: boolean;
  /** Id of the sidechain the entry belongs to (see `Sidechain.id`), null in the main conversation. */
  sidechain: string | null;
  /** Index into `Session.epochs`. */
  epoch: number;
  /** On the active path (the conversation as it ended) or on an abandoned branch. */
  active: boolean;
  /** For an entry on an abandoned branch: uuid of the branch point the branch leaves from. */
  branchPoint: string | null;
  /** API response information, on assistant entries. */
  message: MessageInfo | null;
  content: ContentBlock[];
  /** Usage as written on this line (not deduplicated: see `Session.usage`). */
  usage: Usage | null;
  isMeta: boolean;
  isCompactSummary: boolean;
  isApiError: boolean;
  /** `toolUseResult` as written, on tool-result entries. */
  toolUseResult?: unknown;
  source: SourceRef;
  /** Every field of the record not represented above, verbatim: nothing is dropped. */
  extra: Record<string, unknown>;
}

/** A line without a uuid: summary, file-history-snapshot, queue-operation, pr-link, last-prompt, … */
export interface MetadataRecord {
  type: string;
  sessionId: string | null;
  timestamp: string | null;
  source: SourceRef;
  /** The record verbatim. */
  record: Record<string, unknown>;
}
