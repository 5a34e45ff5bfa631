/**
 * Background agents (FORMAT.md §13.3): the spawn returns at once ("Async agent launched successfully",
 * `toolUseResult.isAsync` / `status: "async_launched"`), and the answer arrives later as a `<task-notification>` or
 * `<agent-notification>` (a user entry or a `queue-operation` record) or through a `TaskOutput` call. The
 * sidechain's status and end come from that answer.
 */
import type { ToolIndex } from '../graph/tool-pairing.js';
import type { AgentAnswer } from '../model/agents.js';
import type { Entry, MetadataRecord } from '../model/entry.js';
import type { Sidechain } from '../model/session.js';
import { asRecord, stringField } from './sidechain-spawns.js';

/** What a notification names and says. */
interface Notice {
  ids: string[];
  answer: AgentAnswer;
}

/**
 * Marks the background sidechains and gives each its answer, status and end time.
 *
 * @param sidechains The session's sidechains, linked and finished.
 * @param entries Its entries.
 * @param metadata Its metadata records.
 * @param tools Its tool calls.
 */
export function linkBackgroundAnswers(
  sidechains: readonly Sidechain[],
  entries: readonly Entry[],
  metadata: readonly MetadataRecord[],
  tools: ToolIndex,
): void {
  // A workflow's agents answer through their run (its snapshot), not one by one.
  const launched = sidechains.filter(
    (s) =>
      s.workflowRun === undefined && s.spawn?.toolUseId && isAsyncLaunch(s.spawn.toolUseId, entries, tools),
  );
  if (launched.length === 0) return;
  const notices = collectNotices(entries, metadata, tools);
  for (const sidechain of launched) {
    const keys = [sidechain.spawn!.toolUseId!, sidechain.agentId, sidechain.name].filter((k) => k != null);
    const notice = notices.find((n) => n.ids.some((id) => keys.includes(id)));
    const answer = notice?.answer ?? null;
    sidechain.background = { answer };
    if (sidechain.status === 'missing' || sidechain.status === 'failed') continue;
    if (answer === null) {
      sidechain.status = 'incomplete';
      continue;
    }
    sidechain.status = /fail|error|kill|stop|cancel/i.test(answer.status ?? '') ? 'error' : 'completed';
    if (answer.timestamp && (!sidechain.endedAt || answer.timestamp > sidechain.endedAt))
      sidechain.endedAt = answer.timestamp;
  }
}

/** Whether the spawn's result says the agent was launched to run in the background. */
function isAsyncLaunch(toolUseId: string, entries: readonly Entry[], tools: ToolIndex): boolean {
  if (asRecord(tools.callInput.get(toolUseId)).run_in_background === true) return true;
  const at = tools.resultEntry.get(toolUseId);
  if (at === undefined) return false;
  const result = entries[at]!;
  const fields = asRecord(result.toolUseResult);
  if (fields.isAsync === true || fields.status === 'async_launched') return true;
  return resultText(result).some((t) => /^\s*Async agent launched/i.test(t));
}

/** Every notification and TaskOutput answer of the session, in file order. */
function collectNotices(
  entries: readonly Entry[],
  metadata: readonly MetadataRecord[],
  tools: ToolIndex,
): Notice[] {
  const notices: Notice[] = [];
  for (const entry of entries) {
    if (entry.type !== 'user') continue;
    for (const block of entry.content) {
      if (block.type !== 'text') continue;
      const notice = parseNotice(block.text, entry.uuid, null, entry.timestamp);
      if (notice) notices.push(notice);
    }
  }
  for (const record of metadata) {
    const content = record.record.content;
    if (typeof content !== 'string') continue;
    const notice = parseNotice(content, null, record.type, record.timestamp);
    if (notice) notices.push(notice);
  }
  for (const call of tools.calls) {
    if (call.name !== 'TaskOutput' || call.resultUuid === null) continue;
    const input = asRecord(tools.callInput.get(call.id));
    const id = stringField(input.task_id) ?? stringField(input.taskId) ?? stringField(input.agentId);
    const result = entries[tools.resultEntry.get(call.id)!]!;
    if (!id) continue;
    const fields = asRecord(result.toolUseResult);
    const task = asRecord(fields.task);
    const status = stringField(task.status) ?? stringField(fields.status);
    notices.push({
      ids: [id],
      answer: {
        via: 'task-output',
        entryUuid: result.uuid,
        record: null,
        timestamp: result.timestamp,
        status: call.status === 'error' ? 'error' : status,
        // The task's own output; the result's text starts with tags (`<retrieval_status>…`).
        summary: firstLine(stringField(task.output) ?? resultText(result)[0] ?? null),
      },
    });
  }
  return notices;
}

/** A `<task-notification>`/`<agent-notification>` block: the ids it names and what it says. */
function parseNotice(
  text: string,
  entryUuid: string | null,
  record: string | null,
  timestamp: string | null,
): Notice | null {
  const body = /<(task|agent)-notification>([\s\S]*?)(?:<\/\1-notification>|$)/.exec(text)?.[2];
  if (body === undefined) return null;
  const tag = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body)?.[1]?.trim() || null;
  const ids = ['task-id', 'tool-use-id', 'agent-id', 'agent-name']
    .map(tag)
    .filter((v): v is string => v !== null);
  return {
    ids,
    answer: {
      via: 'notification',
      entryUuid,
      record,
      timestamp,
      status: tag('status'),
      summary: firstLine(tag('summary') ?? tag('result')),
    },
  };
}

function resultText(result: Entry): string[] {
  const out: string[] = [];
  for (const block of result.content) {
    if (block.type !== 'tool_result') continue;
    for (const item of block.content) if (item.type === 'text') out.push(item.text);
  }
  return out;
}

function firstLine(text: string | null): string | null {
  const line =
    text
      ?.split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? null;
  return line && line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
