/**
 * A structure-only build normalizes each entry record straight into its lean form (`normalizeLeanEntry`); it
 * must give exactly the entry that normalizing it whole and then making it lean gives, key order included (a
 * lean entry may be written to a session file).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { leanEntry, normalizeLeanEntry } from '../../src/lean/structure-only.js';
import type { SourceRef } from '../../src/model/entry.js';
import { normalizeEntry } from '../../src/normalize/entries.js';
import { parseLine, type RawRecord } from '../../src/read/records.js';
import { FIXTURES } from '../fixture-sessions.js';

const corpus = fileURLToPath(new URL('../../../../../shared/corpus/claude-projects', import.meta.url));

function jsonlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const at = stack.pop()!;
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) stack.push(path);
      else if (name.endsWith('.jsonl')) out.push(path);
    }
  }
  return out;
}

/** Both ways of making a lean entry, as JSON text (key order counts). */
function bothWays(record: RawRecord): [string, string] {
  const source: SourceRef = { file: 'f.jsonl', line: 1, offset: 0, length: 1 };
  const direct = JSON.stringify(normalizeLeanEntry(record, source));
  const whole = JSON.stringify(leanEntry(normalizeEntry(record, source)));
  return [direct, whole];
}

const long = (n: number) => 'y'.repeat(n);

describe('normalizeLeanEntry', () => {
  it.each([
    [
      'tool outputs, inputs, thinking and extra fields',
      {
        type: 'assistant',
        uuid: 'a',
        parentUuid: null,
        timestamp: '2026-01-01T00:00:00.000Z',
        requestId: 'r',
        agentId: 'x',
        data: { type: 'agent_progress', agentId: 'x', message: long(50) },
        toolUseResult: { agentId: 'x', content: long(50), task: { status: 'done', output: 'o', other: 1 } },
        message: {
          id: 'm',
          model: 'claude',
          usage: { input_tokens: 1, output_tokens: 2 },
          content: [
            { type: 'thinking', thinking: long(50), signature: 's' },
            { type: 'text', text: long(5000), citations: [] },
            {
              type: 'tool_use',
              id: 't',
              name: 'Task',
              input: { prompt: long(5000), subagent_type: 'x', big: 1 },
            },
            { type: 'tool_use', id: 't2', input: 'not an object' },
            { type: 'tool_use', name: 'no id' },
            { type: 'image', source: { media_type: 'image/png', data: 'AAAA' } },
            { type: 'mystery', value: 1 },
            'not an object',
          ],
        },
      },
    ],
    [
      'a tool result',
      {
        type: 'user',
        uuid: 'b',
        toolUseResult: 'a string',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', is_error: true, content: [{ type: 'text', text: 'x' }] },
            { type: 'tool_result', content: 'no id' },
          ],
        },
      },
    ],
    // The kind is decided on the whole text: 4,000 spaces, then an interruption.
    [
      'a prompt whose text decides its kind past the cut',
      {
        type: 'user',
        uuid: 'c',
        message: {
          role: 'user',
          content: [{ type: 'text', text: `${' '.repeat(4000)}[Request interrupted by user]` }],
        },
      },
    ],
    [
      'a seed tool call beside message content',
      {
        type: 'assistant',
        subtype: 'tool_use',
        uuid: 'd',
        toolName: 'Task',
        toolArguments: { prompt: 'p', extra: long(10) },
        message: { content: [{ type: 'text', text: 'ignored' }] },
      },
    ],
    ['a plain string message', { type: 'user', uuid: 'e', message: long(5000) }],
    ['string content', { type: 'user', uuid: 'f', message: { role: 'user', content: long(4001) } }],
  ])('gives the lean entry of the whole one: %s', (_, record) => {
    const [direct, whole] = bothWays(record as RawRecord);
    expect(direct).toBe(whole);
  });

  const files = [...jsonlFiles(corpus), ...jsonlFiles(FIXTURES)];
  it.skipIf(files.length === 0)(
    'gives the lean entry of the whole one for every entry of the corpus and fixtures',
    () => {
      let compared = 0;
      for (const file of files) {
        for (const line of readFileSync(file, 'utf8').split('\n')) {
          const parsed = parseLine(line);
          if (parsed.kind !== 'records') continue;
          for (const record of parsed.records) {
            if (typeof record.uuid !== 'string') continue;
            const [direct, whole] = bothWays(record);
            if (direct !== whole) expect({ file, direct }).toEqual({ file, direct: whole });
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(1000);
    },
  );
});
