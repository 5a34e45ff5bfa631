/**
 * Reads a session's files: every line becomes records or is accounted for (`LineAccounting`), with a
 * diagnostic for each problem; each entry record is handed to the caller's `toEntry` (normalization) and kept
 * once per uuid. For a structure-only read, lines are shrunk before decoding and finished entries and metadata
 * made lean (`lean/`).
 */

import { type Diagnostic, type DiagnosticCode, diagnostic } from '../diagnostics.js';
import { LEAN_TEXT, LEAN_UNREAD, leanMetadata, SHRINK_ABOVE } from '../lean/structure-only.js';
import type { Entry, MetadataRecord, SidechainStorage, SourceRef } from '../model/entry.js';
import type { LineAccounting, SessionFile } from '../model/session.js';
import type { SessionSource, TranscriptSource } from '../source.js';
import { type AgentMeta, parseAgentMeta } from './agent-meta.js';
import { UuidCopies } from './duplicate-uuid.js';
import { lineProblem, unparsedLineProblem } from './line-problems.js';
import { notATranscript } from './not-a-transcript.js';
import { decodeFull, type Line, type ReadOptions } from './read-lines.js';
import { readableLineBatches } from './readable-lines.js';
import { checkRecordValues } from './record-checks.js';
import { isEntryRecord, isKnownType } from './record-types.js';
import { parseLine, type RawRecord } from './records.js';
import { type SeedCompactionEvent, seedEvent } from './seed-events.js';
import { timestampOrNull } from './timestamps.js';

/** The entries one transcript file contributed. */
export interface FileSpan {
  path: string;
  role: 'main' | 'agent';
  /** From the file name `agent-<id>.jsonl`. */
  agentId: string | null;
  storage: SidechainStorage | null;
  /** Entry index range `[first, end)`. */
  first: number;
  end: number;
}

/** Everything read from a session's files, before any linking. */
export interface SessionRead {
  /** Entries in file order (the main file first, then agent files), one per uuid. */
  entries: Entry[];
  /** Index of the file of each entry. */
  fileOf: Int32Array;
  /** uuid → index of its entry. */
  uuids: ReadonlyMap<string, number>;
  metadata: MetadataRecord[];
  diagnostics: Diagnostic[];
  files: SessionFile[];
  spans: FileSpan[];
  /** Agent sidecars by agent id. */
  metas: Map<string, AgentMeta>;
  seedEvents: SeedCompactionEvent[];
  /** Entry index where the main file's entries end. */
  mainEnd: number;
  accounting: LineAccounting;
}

/** How `readSession` reads. */
export interface ReadSessionOptions {
  /** Normalizes an entry record (a record with a uuid); for a structure-only read, into a lean entry. */
  toEntry: (record: RawRecord, source: SourceRef) => Entry;
  /** Structure only: shrink lines before decoding and keep lean metadata (`toEntry` makes lean entries). */
  lean: boolean;
}

/**
 * Reads every file of a session, in order: the main transcript, its agent files, then its agent sidecars.
 *
 * @param source The session's files.
 * @param options The entry normalizer, and whether to read structure only.
 */
export async function readSession(source: SessionSource, options: ReadSessionOptions): Promise<SessionRead> {
  const state: ReadState = {
    lean: options.lean,
    toEntry: options.toEntry,
    entries: [],
    fileOf: [],
    metadata: [],
    diagnostics: [],
    copies: new UuidCopies(),
    seedEvents: [],
    unknownTypes: new Set(),
    accounting: { lines: 0, entries: 0, metadata: 0, duplicates: 0, blank: 0, invalid: 0, recovered: 0 },
  };
  const files: SessionFile[] = [];
  const spans: FileSpan[] = [];
  const inputs: { source: TranscriptSource; role: 'main' | 'agent' }[] = [];
  if (source.main) inputs.push({ source: source.main, role: 'main' });
  for (const agent of source.agents) inputs.push({ source: agent, role: 'agent' });
  // Structure-only builds shrink long lines before decoding them: the values they never read (tool outputs,
  // thinking, …: `LEAN_UNREAD`) are emptied, and other long strings cut to the text a lean entry keeps.
  const lineOptions: ReadOptions = state.lean
    ? { shrinkAbove: SHRINK_ABOVE, keep: LEAN_TEXT, unread: LEAN_UNREAD }
    : {};
  for (const [n, input] of inputs.entries()) {
    const first = state.entries.length;
    const read = await readFile(input.source, n, lineOptions, state);
    files.push({ path: input.source.path, role: input.role, lines: read.lines, bytes: read.bytes });
    spans.push({
      path: input.source.path,
      role: input.role,
      agentId: input.role === 'agent' ? agentIdOf(input.source.path) : null,
      storage:
        input.role === 'agent'
          ? /\/subagents\//.test(input.source.path.replaceAll('\\', '/'))
            ? 'subagents'
            : 'flat'
          : null,
      first,
      end: state.entries.length,
    });
    checkFile(input.source.path, read, state, first);
  }
  await state.copies.settle(
    inputs.map((input) => input.source),
    lineOptions,
    state.diagnostics,
  );

  const metas = new Map<string, AgentMeta>();
  for (const meta of source.agentMeta ?? []) {
    files.push({ path: meta.path, role: 'agent-meta', lines: 0, bytes: meta.text.length });
    const parsed = parseAgentMeta(meta.text);
    if (parsed?.invalidSpawnDepth) state.diagnostics.push(diagnostic('invalid-agent-depth', meta.path, null));
    if (parsed) metas.set(agentIdOf(meta.path.replace(/\.meta\.json$/, '.jsonl')) ?? meta.path, parsed);
    else state.diagnostics.push(diagnostic('invalid-agent-meta', meta.path, null));
  }
  return {
    entries: state.entries,
    fileOf: Int32Array.from(state.fileOf),
    uuids: state.copies.entries,
    metadata: state.metadata,
    diagnostics: state.diagnostics,
    files,
    spans,
    metas,
    seedEvents: state.seedEvents,
    mainEnd: source.main ? spans[0]!.end : 0,
    accounting: state.accounting,
  };
}

interface ReadState {
  lean: boolean;
  toEntry: (record: RawRecord, source: SourceRef) => Entry;
  entries: Entry[];
  fileOf: number[];
  metadata: MetadataRecord[];
  diagnostics: Diagnostic[];
  copies: UuidCopies;
  seedEvents: SeedCompactionEvent[];
  unknownTypes: Set<string>;
  accounting: LineAccounting;
}

interface FileRead {
  lines: number;
  bytes: number;
  records: number;
  sessionIds: Set<string>;
  /** The sessionId added last: a file's records repeat one, which is then not looked up again. */
  lastSessionId: string | null;
}

async function readFile(
  source: TranscriptSource,
  fileIndex: number,
  options: ReadOptions,
  state: ReadState,
): Promise<FileRead> {
  const read: FileRead = { lines: 0, bytes: 0, records: 0, sessionIds: new Set(), lastSessionId: null };
  for await (const batch of readableLineBatches(source, options, state.diagnostics))
    for (const line of batch) readLine(line, source.path, fileIndex, read, state);
  return read;
}

/** Parses one line and adds its records, or accounts for it as blank or invalid. */
function readLine(line: Line, path: string, fileIndex: number, read: FileRead, state: ReadState): void {
  const { accounting, diagnostics } = state;
  read.lines += 1;
  read.bytes = line.offset + line.length + (line.terminated ? 1 : 0);
  accounting.lines += 1;
  const ref: SourceRef = { file: path, line: line.number, offset: line.offset, length: line.length };
  // A short line's depth is checked only when it does not parse (`lineProblem`).
  let problem = lineProblem(line);
  let parsed = problem ? null : parseLine(line.text);
  if (parsed?.kind === 'invalid') problem = unparsedLineProblem(line);
  if (problem || !parsed) {
    accounting.invalid += 1;
    if (problem) diagnostics.push(diagnostic(problem.code, path, line.number, problem.details));
    return;
  }
  if (line.full && parsed.kind !== 'records') {
    line.text = decodeFull(line.full);
    parsed = parseLine(line.text);
  }
  if (parsed.kind === 'blank') {
    accounting.blank += 1;
    return;
  }
  if (parsed.kind !== 'records') {
    accounting.invalid += 1;
    const code: DiagnosticCode =
      parsed.kind === 'not-an-object' ? 'not-an-object' : !line.terminated ? 'torn-line' : 'invalid-json';
    const message =
      line.invalidUtf8 && code === 'invalid-json'
        ? 'The line is not valid JSON and holds bytes that are not valid UTF-8; its text is kept here.'
        : undefined;
    diagnostics.push(
      diagnostic(code, path, line.number, { raw: line.text, ...(message ? { message } : {}) }),
    );
    return;
  }
  if (parsed.glued) {
    accounting.recovered += parsed.records.length - 1;
    diagnostics.push(
      diagnostic('glued-records', path, line.number, {
        message: `${parsed.records.length} records were written on one line; they were split and kept.`,
      }),
    );
  }
  if (line.invalidUtf8) diagnostics.push(diagnostic('invalid-utf8', path, line.number));
  const glued = parsed.glued;
  for (let part = 0; part < parsed.records.length; part++) {
    const record = parsed.records[part]!;
    read.records += 1;
    const sessionId = record.sessionId;
    if (typeof sessionId === 'string' && sessionId !== read.lastSessionId) read.sessionIds.add(sessionId);
    if (typeof sessionId === 'string') read.lastSessionId = sessionId;
    addRecord(record, glued ? { ...ref, part } : ref, glued ? null : line.text, fileIndex, state);
  }
}

/** Adds a record of a line (`text`: the line's, null for a glued record). */
function addRecord(
  record: RawRecord,
  ref: SourceRef,
  text: string | null,
  file: number,
  state: ReadState,
): void {
  const { accounting, diagnostics } = state;
  const type = record.type;
  if (typeof type !== 'string') {
    diagnostics.push(diagnostic('missing-type', ref.file, ref.line));
  } else if (!isKnownType(type) && !state.unknownTypes.has(`${ref.file}\0${type}`)) {
    state.unknownTypes.add(`${ref.file}\0${type}`);
    diagnostics.push(
      diagnostic('unknown-type', ref.file, ref.line, {
        message: `Record type "${type}" is not known to cctrail; kept verbatim.`,
      }),
    );
  }
  if (isEntryRecord(record)) {
    const uuid = record.uuid as string;
    const first = state.copies.note(uuid, state.entries.length);
    if (first !== -1) {
      accounting.duplicates += 1;
      const original = { file: state.fileOf[first]!, source: state.entries[first]!.source };
      state.copies.hold(uuid, ref, text ?? JSON.stringify(record), original, diagnostics);
      return;
    }
    checkRecordValues(record, ref, diagnostics);
    const entry = state.toEntry(record, ref);
    state.entries.push(entry);
    state.fileOf.push(file);
    accounting.entries += 1;
    if (type === 'compact_system') state.seedEvents.push(seedEvent(record, ref, state.entries.length, uuid));
    return;
  }
  accounting.metadata += 1;
  checkRecordValues(record, ref, diagnostics);
  state.metadata.push({
    type: typeof type === 'string' ? type : 'unknown',
    sessionId: typeof record.sessionId === 'string' ? record.sessionId : null,
    timestamp: timestampOrNull(record.timestamp),
    source: ref,
    record: state.lean ? leanMetadata(record) : record,
  });
  if (type === 'compact_system') state.seedEvents.push(seedEvent(record, ref, state.entries.length, null));
}

function checkFile(path: string, read: FileRead, state: ReadState, first: number): void {
  if (read.sessionIds.size > 1) {
    state.diagnostics.push(
      diagnostic('multiple-session-ids', path, null, {
        message: `The file carries ${read.sessionIds.size} sessionId values: ${[...read.sessionIds].join(', ')}.`,
      }),
    );
  }
  if (state.entries.length > first) return;
  if (read.lines > 0 && read.records === 0) notATranscript(path, state.diagnostics);
  else state.diagnostics.push(diagnostic('no-entries', path, null));
}

/** `agent-<id>.jsonl` → `<id>`. */
function agentIdOf(path: string): string | null {
  const match = /(?:^|[\\/])agent-([^\\/]+)\.jsonl$/.exec(path);
  return match?.[1] ?? null;
}
