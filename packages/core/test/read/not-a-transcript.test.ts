import { describe, expect, it } from 'vitest';
import { buildSession } from '../../src/index.js';
import { memorySource, prompt } from '../helpers.js';

/** Another tool's file among the transcripts is one warning for the file, not an error for each of its lines. */

const PRETTY = `${JSON.stringify({ tool: 'other', settings: { theme: 'dark', items: [1, 2, 3] } }, null, 2)}\n`;

async function diagnosticsOf(text: string) {
  const s = await buildSession({ id: 'x', main: memorySource('p/x.jsonl', text), agents: [] });
  return { s, codes: s.diagnostics.map((d) => `${d.line}:${d.code}:${d.severity}`) };
}

describe('a file that is not a transcript', () => {
  it('is one not-a-transcript warning with its first line kept, whatever its length', async () => {
    const { s, codes } = await diagnosticsOf(PRETTY);
    expect(codes).toEqual(['null:not-a-transcript:warning']);
    expect(s.diagnostics[0]!.raw).toBe('{');
    expect(s.diagnostics[0]!.message).toContain(`Its ${PRETTY.split('\n').length - 1} lines`);
    // Every line is still accounted for.
    expect(s.accounting).toMatchObject({ lines: 11, invalid: 11, entries: 0 });
  });

  it('keeps the error of a single bad line (a torn first write) beside the warning', async () => {
    const { codes } = await diagnosticsOf('{"type":"user","uuid":"a"');
    expect(codes).toEqual(['1:torn-line:error', 'null:not-a-transcript:warning']);
  });

  it('leaves the line errors of a transcript that has records', async () => {
    const { codes } = await diagnosticsOf(`${JSON.stringify(prompt('a', null))}\n{oops\n[1]\n`);
    expect(codes).toEqual(['2:invalid-json:error', '3:not-an-object:error']);
  });
});
