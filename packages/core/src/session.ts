/**
 * Builds a `Session` from its files: reads every line (accounting for each), then links the DAG and runs the
 * analyses in dependency order: tools → sidechains → compactions → branches → usage.
 */
import { findBranches } from './analyses/branches.js';
import { findCompactions, type SeedCompactionEvent } from './analyses/compaction.js';
import { type AgentMeta, type FileSpan, findSidechains } from './analyses/sidechains.js';
import { type DiagnosticCode, diagnostic } from './diagnostics.js';
import { linkDag } from './graph/dag.js';
import { pairTools } from './graph/tool-pairing.js';
import { breakdown, groupResponses } from './graph/usage.js';
import type {
  Diagnostic,
  Entry,
  LineAccounting,
  MetadataRecord,
  Session,
  SessionFile,
  SourceRef,
} from './model.js';
import { SCHEMA_VERSION } from './model.js';
import {
  isEntryRecord,
  isKnownType,
  isTypedCommand,
  LEAN_TEXT,
  LEAN_UNREAD,
  normalizeEntry,
  promptText,
} from './normalize/entries.js';
import { decodeFull, type Line, readLineBatches } from './read/read-lines.js';
import { parseLine, type RawRecord } from './read/records.js';
import type { BuildOptions, SessionSource, TranscriptSource } from './source.js';

/**
 * Reads a session's files and builds its model. Never throws on bad input: every problem becomes a
 * diagnostic, and every input line is accounted for (`Session.accounting`).
 *
 * @param source The main transcript and its agent files.
 * @param options `content: false` keeps structure only, for low memory on huge sessions.
 */
export async function buildSession(source: SessionSource, options: BuildOptions = {}): Promise<Session> {
  const keepContent = options.content !== false;
  const state: ReadState = {
    keepContent,
    entries: [],
    fileOf: [],
    metadata: [],
    diagnostics: [],
    seen: new Set(),
    seedEvents: [],
    unknownTypes: new Set(),
    accounting: { lines: 0, entries: 0, metadata: 0, duplicates: 0, blank: 0, invalid: 0, recovered: 0 },
  };
  const files: SessionFile[] = [];
  const spans: FileSpan[] = [];
  const inputs: { source: TranscriptSource; role: 'main' | 'agent' }[] = [];
  if (source.main) inputs.push({ source: source.main, role: 'main' });
  for (const agent of source.agents) inputs.push({ source: agent, role: 'agent' });

  for (const [n, input] of inputs.entries()) {
    const first = state.entries.length;
    const read = await readFile(input.source, n, state);
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

  const metas = new Map<string, AgentMeta>();
  for (const meta of source.agentMeta ?? []) {
    files.push({ path: meta.path, role: 'agent-meta', lines: 0, bytes: meta.text.length });
    const parsed = parseMeta(meta.text);
    if (parsed) metas.set(agentIdOf(meta.path.replace(/\.meta\.json$/, '.jsonl')) ?? meta.path, parsed);
    else state.diagnostics.push(diagnostic('invalid-agent-meta', meta.path, null));
  }

  const { entries, diagnostics } = state;
  const mainEnd = source.main ? spans[0]!.end : 0;
  const cuts = state.seedEvents
    .filter((e) => e.phase === 'conversation_compacted' && e.before <= mainEnd)
    .map((e) => e.before);
  const dag = linkDag(entries, Int32Array.from(state.fileOf), diagnostics, cuts);
  const tools = pairTools(entries, diagnostics);
  const sidechains = findSidechains(dag, spans, metas, tools, diagnostics);
  // A compaction helper's lines point into the session's main file by design (FORMAT.md §7): not a problem.
  const helpers = new Set(sidechains.filter((s) => s.role === 'compaction').map((s) => s.file));
  for (const d of diagnostics) {
    if (d.code === 'orphan' && helpers.has(d.file)) {
      d.severity = 'info';
      d.message = `${d.message.replace(/ the entry is an alternative root\.$/, '')} The compaction helper's lines point into the main file by design.`;
    }
  }
  for (const call of tools.calls) {
    const at = call.callUuid === null ? undefined : dag.index.get(call.callUuid);
    call.sidechain = at === undefined ? null : entries[at]!.sidechain;
  }
  const { compactions, epochs } = findCompactions(dag, state.seedEvents, mainEnd, diagnostics);
  const { branchPoints, branches, leaf } = findBranches(dag, compactions, sidechains, diagnostics);

  const apiResponses = groupResponses(entries);
  const usage = breakdown(apiResponses);
  for (const epoch of epochs) epoch.usage = usage.byEpoch[String(epoch.index)] ?? epoch.usage;
  for (const sidechain of sidechains) sidechain.usage = usage.bySidechain[sidechain.id] ?? sidechain.usage;

  for (const record of state.metadata) {
    const leafUuid = record.record.leafUuid;
    if (record.type === 'summary' && typeof leafUuid === 'string' && !dag.index.has(leafUuid)) {
      diagnostics.push(
        diagnostic('summary-leaf-missing', record.source.file, record.source.line, {
          message: `Summary names leaf ${leafUuid}, which is not in this session.`,
        }),
      );
    }
  }

  const firstPrompt = findFirstPrompt(entries);
  const times = timeSpan(entries);
  return {
    schemaVersion: SCHEMA_VERSION,
    id: source.id,
    sessionIds: distinct(entries.map((e) => e.sessionId)),
    project: {
      slug: source.project?.slug ?? null,
      cwd: source.project?.cwd ?? mostCommon(entries.map((e) => e.cwd)),
    },
    files,
    title: firstPrompt ? titleOf(firstPrompt) : summaryTitle(state.metadata),
    firstPrompt,
    startedAt: times.start,
    endedAt: times.end,
    versions: distinct(entries.map((e) => e.version)),
    models: distinct(entries.map((e) => e.message?.model ?? null)).filter((m) => m !== '<synthetic>'),
    entries,
    metadata: state.metadata,
    roots: dag.roots.map((i) => entries[i]!.uuid),
    orphans: dag.orphans.map((i) => entries[i]!.uuid),
    leaf,
    branchPoints,
    branches,
    sidechains,
    compactions,
    epochs,
    tools: tools.calls,
    responses: apiResponses,
    usage,
    duplicateOf: null,
    diagnostics,
    accounting: state.accounting,
  };
}

interface ReadState {
  keepContent: boolean;
  entries: Entry[];
  fileOf: number[];
  metadata: MetadataRecord[];
  diagnostics: Diagnostic[];
  seen: Set<string>;
  seedEvents: SeedCompactionEvent[];
  unknownTypes: Set<string>;
  accounting: LineAccounting;
}

interface FileRead {
  lines: number;
  bytes: number;
  records: number;
  sessionIds: Set<string>;
}

async function readFile(source: TranscriptSource, fileIndex: number, state: ReadState): Promise<FileRead> {
  const read: FileRead = { lines: 0, bytes: 0, records: 0, sessionIds: new Set() };
  // Structure-only builds shrink long lines before decoding them: the values they never read (tool outputs,
  // thinking, …: `LEAN_UNREAD`) are emptied, and other long strings cut to the text a lean entry keeps.
  const options = state.keepContent
    ? {}
    : { shrinkAbove: SHRINK_ABOVE, keep: LEAN_TEXT, unread: LEAN_UNREAD };
  for await (const batch of readLineBatches(source.read(), options)) {
    for (const line of batch) readLine(line, source.path, fileIndex, read, state);
  }
  return read;
}

/** Parses one line and adds its records, or accounts for it as blank or invalid. */
function readLine(line: Line, path: string, fileIndex: number, read: FileRead, state: ReadState): void {
  const { accounting, diagnostics } = state;
  read.lines += 1;
  read.bytes = line.offset + line.length + (line.terminated ? 1 : 0);
  accounting.lines += 1;
  const ref: SourceRef = { file: path, line: line.number, offset: line.offset, length: line.length };
  let parsed = parseLine(line.text);
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
  for (let part = 0; part < parsed.records.length; part++) {
    const record = parsed.records[part]!;
    read.records += 1;
    if (typeof record.sessionId === 'string') read.sessionIds.add(record.sessionId);
    addRecord(record, parsed.glued ? { ...ref, part } : ref, fileIndex, state);
  }
}

/** Lines longer than this many bytes are shrunk in structure-only builds (shorter ones parse as fast whole). */
const SHRINK_ABOVE = 8 * 1024;

function addRecord(record: RawRecord, ref: SourceRef, fileIndex: number, state: ReadState): void {
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
    if (state.seen.has(uuid)) {
      accounting.duplicates += 1;
      diagnostics.push(
        diagnostic('duplicate-uuid', ref.file, ref.line, {
          uuid,
          message: `Uuid ${uuid} was written again; the first copy is kept.`,
        }),
      );
      return;
    }
    state.seen.add(uuid);
    const entry = normalizeEntry(record, ref, state.keepContent);
    state.entries.push(entry);
    state.fileOf.push(fileIndex);
    accounting.entries += 1;
    if (type === 'compact_system') seedEvent(record, ref, state, uuid);
    return;
  }
  accounting.metadata += 1;
  state.metadata.push({
    type: typeof type === 'string' ? type : 'unknown',
    sessionId: typeof record.sessionId === 'string' ? record.sessionId : null,
    timestamp: typeof record.timestamp === 'string' ? record.timestamp : null,
    source: ref,
    record: state.keepContent ? record : leanMetadata(record),
  });
  if (type === 'compact_system') seedEvent(record, ref, state, null);
}

function seedEvent(record: RawRecord, ref: SourceRef, state: ReadState, uuid: string | null): void {
  const phase =
    typeof record.message === 'string'
      ? record.message
      : typeof record.subtype === 'string'
        ? record.subtype
        : '';
  const metadata =
    typeof record.metadata === 'object' && record.metadata !== null
      ? (record.metadata as Record<string, unknown>)
      : {};
  state.seedEvents.push({ phase, before: state.entries.length, metadata, uuid, source: ref });
}

/** Metadata kept when content is not: small fields only (snapshots can be large). */
function leanMetadata(record: RawRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['type', 'summary', 'leafUuid', 'sessionId', 'timestamp', 'operation', 'messageId']) {
    if (record[key] !== undefined) out[key] = record[key];
  }
  return out;
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
  if (read.lines > 0 && read.records === 0)
    state.diagnostics.push(diagnostic('not-a-transcript', path, null));
  else state.diagnostics.push(diagnostic('no-entries', path, null));
}

function parseMeta(text: string): AgentMeta | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const meta = value as Record<string, unknown>;
    const out: AgentMeta = {};
    if (typeof meta.agentType === 'string') out.agentType = meta.agentType;
    if (typeof meta.description === 'string') out.description = meta.description;
    if (typeof meta.toolUseId === 'string') out.toolUseId = meta.toolUseId;
    if (typeof meta.spawnDepth === 'number') out.spawnDepth = meta.spawnDepth;
    return out;
  } catch {
    return null;
  }
}

/** `agent-<id>.jsonl` → `<id>`. */
function agentIdOf(path: string): string | null {
  const match = /(?:^|[\\/])agent-([^\\/]+)\.jsonl$/.exec(path);
  return match?.[1] ?? null;
}

/** `firstPrompt` is cut to this many characters, so that structure-only builds (which keep no more) agree. */
const FIRST_PROMPT_CHARS = 2000;

/** The first thing the person typed in the main conversation (at most `FIRST_PROMPT_CHARS` characters). */
function findFirstPrompt(entries: readonly Entry[]): string | null {
  for (const entry of entries) {
    if (entry.sidechain !== null || entry.isSidechain) continue;
    if (entry.kind !== 'prompt' && !isTypedCommand(entry)) continue;
    const text = promptText(entry.content);
    if (text) return text.slice(0, FIRST_PROMPT_CHARS);
  }
  return null;
}

function titleOf(prompt: string): string {
  const text = prompt
    .replace(/<[^>]{1,40}>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function summaryTitle(metadata: readonly MetadataRecord[]): string | null {
  for (let i = metadata.length - 1; i >= 0; i--) {
    const summary = metadata[i]!.record.summary;
    if (metadata[i]!.type === 'summary' && typeof summary === 'string' && summary.trim())
      return titleOf(summary);
  }
  return null;
}

function timeSpan(entries: readonly Entry[]): { start: string | null; end: string | null } {
  let start: number | null = null;
  let end: number | null = null;
  for (const entry of entries) {
    if (!entry.timestamp) continue;
    const t = Date.parse(entry.timestamp);
    if (!Number.isFinite(t)) continue;
    if (start === null || t < start) start = t;
    if (end === null || t > end) end = t;
  }
  return {
    start: start === null ? null : new Date(start).toISOString(),
    end: end === null ? null : new Date(end).toISOString(),
  };
}

function distinct(values: readonly (string | null)[]): string[] {
  const out = new Set<string>();
  for (const v of values) if (v !== null) out.add(v);
  return [...out];
}

function mostCommon(values: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  let bestCount = 0;
  for (const v of values) {
    if (v === null) continue;
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (n > bestCount) [best, bestCount] = [v, n];
  }
  return best;
}
