/**
 * The catalogue of diagnostic codes. Codes are permanent: a code is never renamed or reused. Each entry says
 * what happened and what the user can do about it.
 */
export const DIAGNOSTICS = {
  'invalid-json': {
    severity: 'error',
    message: 'The line is not valid JSON; it is kept as raw text in this diagnostic.',
  },
  'torn-line': {
    severity: 'error',
    message: 'The last line of the file is incomplete (a write was cut off); its raw text is kept here.',
  },
  'invalid-utf8': {
    severity: 'warning',
    message: 'The line holds bytes that are not valid UTF-8; they were replaced with U+FFFD.',
  },
  'glued-records': {
    severity: 'warning',
    message: 'Several JSON records were written on one line without a newline; they were split and kept.',
  },
  'not-an-object': {
    severity: 'error',
    message: 'The line is valid JSON but not an object, so it is not a transcript record; kept as raw text.',
  },
  'missing-type': {
    severity: 'warning',
    message: 'The record has no `type`; it is kept as an unknown record.',
  },
  'unknown-type': {
    severity: 'info',
    message: 'A record type cctrail does not know; it is kept verbatim.',
  },
  'duplicate-uuid': {
    severity: 'info',
    message: 'A uuid written again (a resume rewrites its last line); the first copy is kept.',
  },
  orphan: {
    severity: 'warning',
    message: 'The parent of this entry is not in the session; the entry is treated as an alternative root.',
  },
  'compaction-helper-link': {
    severity: 'info',
    message:
      "A compaction helper's line (agent-acompact-*) names a parent in the session's main file, by design; nothing to do.",
  },
  'self-parent': {
    severity: 'warning',
    message: 'The entry names itself as its parent; the link was cut and the entry made a root.',
  },
  'parent-cycle': {
    severity: 'warning',
    message: 'Parent links form a cycle; the link of the earliest entry in the cycle was cut.',
  },
  'multiple-session-ids': {
    severity: 'info',
    message: 'The file carries several sessionId values (plan-mode clears, resumes).',
  },
  'compaction-orphan': {
    severity: 'info',
    message: 'An entry after a compaction points back across it; it starts the new epoch, linked logically.',
  },
  'dangling-logical-parent': {
    severity: 'warning',
    message: 'The logical parent of a compaction is not in the session and no preserved segment resolves it.',
  },
  'compaction-incomplete': {
    severity: 'warning',
    message: 'A compaction was torn mid-way; the conversation ends at the last valid entry before it.',
  },
  'missing-agent-file': {
    severity: 'warning',
    message: 'A sub-agent was spawned but its transcript file is not there; the spawn is still counted.',
  },
  'agent-not-spawned': {
    severity: 'info',
    message: 'An agent transcript that no Task/Agent call in the session spawned.',
  },
  'sidechain-unmatched': {
    severity: 'info',
    message: 'An inline sidechain that matches no Task call by parent, prompt or time; its agent is unknown.',
  },
  'sidechain-incomplete': {
    severity: 'info',
    message: 'A sub-agent that did not finish (interrupted, or the session ended while it ran).',
  },
  'spawn-failed': {
    severity: 'info',
    message:
      'A Task/Agent call whose result is an error (interrupted or refused): no agent ran; its sidechain is `failed`.',
  },
  'task-without-sidechain': {
    severity: 'info',
    message: 'A Task call whose sidechain was not found in the session.',
  },
  'tool-result-missing': {
    severity: 'info',
    message: 'A tool call without a result (interrupted, or the session ended).',
  },
  'tool-call-missing': {
    severity: 'warning',
    message: 'A tool result whose call is not in the session.',
  },
  'duplicate-tool-result': {
    severity: 'info',
    message: 'A second result for the same tool call; the first is paired.',
  },
  'active-branch-disagreement': {
    severity: 'info',
    message: 'At this fork the last child by file position is not the one leading to the latest entry.',
  },
  'invalid-agent-meta': {
    severity: 'warning',
    message: 'An agent .meta.json file is not valid JSON; it was ignored.',
  },
  'summary-leaf-missing': {
    severity: 'info',
    message:
      'A summary line names a leaf uuid that is not in the session (summaries are often written for other sessions).',
  },
  'no-entries': {
    severity: 'info',
    message: 'The file holds no conversation entries (only metadata such as summaries or snapshots).',
  },
  'not-a-transcript': {
    severity: 'warning',
    message:
      "No line of the file is a transcript record: it is not a Claude Code transcript (another tool's file?) and was skipped.",
  },
  'too-deep': {
    severity: 'error',
    message: 'The line nests objects and arrays deeper than cctrail reads; it is kept as raw text here.',
  },
  'line-too-long': {
    severity: 'error',
    message:
      'The line is longer than cctrail reads (32 MiB); it was not read (its size and first characters are here).',
  },
  'number-out-of-range': {
    severity: 'warning',
    message:
      'A token count is negative, fractional, too large or not a number; it was counted as 0 (the record keeps it).',
  },
  'invalid-timestamp': {
    severity: 'warning',
    message: 'The timestamp is not a valid date; the entry has no time.',
  },
  'invalid-agent-depth': {
    severity: 'warning',
    message: 'The spawnDepth of an agent .meta.json is not a positive integer; it was ignored.',
  },
  'unreadable-file': {
    severity: 'error',
    message:
      'A transcript file could not be read (permissions, a vanished file); the rest of the run went on.',
  },
  'skipped-path': {
    severity: 'warning',
    message:
      'An input path was not read (a link out of the folder, a FIFO or device, a folder named *.jsonl, a folder that cannot be listed); the message says why.',
  },
  'cost-differs': {
    severity: 'info',
    message:
      "cctrail's cost of the session differs by more than 1 % from Claude Code's own figure (its cost-state record): the two price tables disagree on a model, or Claude Code counted calls the transcript does not hold.",
  },
} as const satisfies Record<string, { severity: Severity; message: string }>;

/** A code of the catalogue. */
export type DiagnosticCode = keyof typeof DIAGNOSTICS;

/** How bad a diagnostic is. `error`: data was lost or is wrong; `warning`: recovered; `info`: worth knowing. */
export type Severity = 'error' | 'warning' | 'info';

/** A problem found in the input. Never thrown: collected on the session. */
export interface Diagnostic {
  /** Permanent code from the catalogue (`DIAGNOSTICS`), e.g. `invalid-json`. */
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** File the problem is in, or null when it concerns the session as a whole. */
  file: string | null;
  /** 1-based line, or null. */
  line: number | null;
  /** The raw text of the line when that line could not become an entry or a metadata record. */
  raw?: string;
  /** Uuid of the entry concerned, when there is one. */
  uuid?: string;
}

/**
 * Builds a diagnostic from the catalogue, with an optional more specific message.
 *
 * @param code The catalogue code.
 * @param file The file concerned, or null for the whole session.
 * @param line The 1-based line, or null.
 * @param detail A message for this instance, the raw line, the entry's uuid.
 */
export function diagnostic(
  code: DiagnosticCode,
  file: string | null,
  line: number | null,
  detail?: { message?: string; raw?: string; uuid?: string },
): Diagnostic {
  const base = DIAGNOSTICS[code];
  const result: Diagnostic = {
    code,
    severity: base.severity,
    message: detail?.message ?? base.message,
    file,
    line,
  };
  if (detail?.raw !== undefined) result.raw = detail.raw;
  if (detail?.uuid !== undefined) result.uuid = detail.uuid;
  return result;
}
