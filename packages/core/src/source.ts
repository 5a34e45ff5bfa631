/**
 * What a session is built from: transcript byte streams, named. Core never opens files itself; the node
 * adapter (`@cctrail/core/node`) or a caller supplies the bytes.
 */

/** One transcript file as a stream of byte chunks. */
export interface TranscriptSource {
  /** Path as it should appear in diagnostics and `SourceRef.file`. */
  path: string;
  /** Returns the file's bytes, chunk by chunk. May be called more than once. */
  read(): AsyncIterable<Uint8Array>;
}

/** An agent sidecar (`agent-<id>.meta.json`), already read: these are tiny. */
export interface AgentMetaSource {
  path: string;
  text: string;
}

/** Everything that makes up one session. */
export interface SessionSource {
  /** Session id: the main file's name without `.jsonl`, or the agents' `sessionId` when there is no main file. */
  id: string;
  project?: { slug: string | null; cwd?: string | null };
  /** The main transcript, null when only agent files of the session exist. */
  main: TranscriptSource | null;
  /** `agent-*.jsonl` files of the session, flat or under `<session>/subagents/`. */
  agents: TranscriptSource[];
  agentMeta?: AgentMetaSource[];
  /** Workflow run files, already read: snapshots `<session>/workflows/<runId>.json` and run journals `journal.jsonl`. */
  workflowFiles?: AgentMetaSource[];
}

/** Options for `buildSession`. */
export interface BuildOptions {
  /**
   * Keep content blocks, `toolUseResult` and extra fields on entries (default true). With false, entries
   * carry structure only (uuids, kinds, timestamps, usage, tool ids, source offsets) and memory does not
   * grow with the size of tool outputs; the content can be read again from `Entry.source`.
   */
  content?: boolean;
  /**
   * Rewrites the text a title and the first prompt are made of before they are cut to length (the CLI redacts
   * secrets with it: a secret cut in the middle would publish its first part).
   */
  beforeCut?: (text: string) => string;
  /**
   * Build only what statistics read (`statsDigest`, `priceSession`): the session's title, first prompt, other
   * session ids and record types are not computed (left null or empty), `project.cwd` is null unless the source
   * gives it, and tool calls are not attributed to sidechains (`ToolCall.sidechain` stays null). Everything else,
   * the diagnostics included, is as a full build makes it. For `cctrail stats`.
   */
  statsOnly?: boolean;
}
