/**
 * Conformance over the real transcripts in ../shared/corpus (skipped when it is absent): no crash, every line
 * accounted for, every tool call paired or reported, every agent file linked or classified, compactions counted
 * as the files hold, and token totals equal to an independent count.
 */

import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { usageAcross } from '../src/archive/duplicates.js';
import { sessionJson, statsDigest } from '../src/archive/index.js';
import { buildSession, type Session, type SessionSource } from '../src/index.js';
import { discover, sessionSource } from '../src/node/index.js';
import { accounted } from './helpers.js';

const corpus = fileURLToPath(new URL('../../../../shared/corpus/claude-projects', import.meta.url));
const present = existsSync(corpus);

describe.skipIf(!present)('the shared corpus', () => {
  const sessions: Session[] = [];
  const sources: SessionSource[] = [];
  const files = new Map<string, Buffer>();

  beforeAll(async () => {
    const found = await discover([corpus]);
    for (const project of found.projects) {
      for (const s of project.sessions) {
        for (const f of [s.mainFile, ...s.agentFiles]) if (f) files.set(relative(corpus, f), readFileSync(f));
        const source = await sessionSource(s, (p) => relative(corpus, p));
        sources.push(source);
        sessions.push(await buildSession(source));
      }
    }
  });

  it('builds the same sessions without content: statistics, and the session once content is read back', async () => {
    for (const [i, source] of sources.entries()) {
      const full = sessions[i]!;
      const lean = await buildSession(source, { content: false });
      expect(statsDigest(lean), full.id).toEqual(statsDigest(full));
      let text = '';
      for await (const piece of sessionJson(lean, source)) text += piece;
      expect(text === JSON.stringify(full), full.id).toBe(true);
    }
  });

  it('reads every transcript file into some session', () => {
    const read = new Set(
      sessions.flatMap((s) => s.files.filter((f) => f.role !== 'agent-meta').map((f) => f.path)),
    );
    expect([...files.keys()].filter((f) => !read.has(f))).toEqual([]);
    expect(sessions.length).toBeGreaterThan(10);
  });

  it('accounts for every input line', () => {
    for (const s of sessions) {
      expect(accounted(s), s.id).toBe(true);
      for (const f of s.files) {
        if (f.role === 'agent-meta') continue;
        const bytes = files.get(f.path)!;
        let lines = 0;
        for (const b of bytes) if (b === 0x0a) lines++;
        if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) lines++;
        expect(f.lines, f.path).toBe(lines);
      }
    }
  });

  it('pairs every tool call or reports it', () => {
    for (const s of sessions) {
      const reported = new Set(s.diagnostics.flatMap((d) => (d.uuid ? [d.uuid] : [])));
      for (const t of s.tools) {
        if (t.status === 'missing-result') expect(reported.has(t.callUuid!), `${s.id} ${t.id}`).toBe(true);
        if (t.status === 'result-without-call')
          expect(reported.has(t.resultUuid!), `${s.id} ${t.id}`).toBe(true);
      }
    }
  });

  it('links every agent file or classifies it', () => {
    for (const s of sessions) {
      for (const f of s.files.filter((x) => x.role === 'agent')) {
        const sidechain = s.sidechains.find((x) => x.file === f.path);
        expect(sidechain, f.path).toBeDefined();
        if (sidechain!.role === 'orphan')
          expect(s.diagnostics.some((d) => d.code === 'agent-not-spawned' && d.file === f.path)).toBe(true);
        if (f.path.includes('agent-acompact')) expect(sidechain!.role).toBe('compaction');
      }
    }
  });

  it('counts compactions as the files hold them', () => {
    let boundaries = 0;
    let micro = 0;
    for (const bytes of files.values()) {
      for (const line of bytes.toString('utf8').split('\n')) {
        if (line.includes('"subtype":"compact_boundary"')) boundaries++;
        if (line.includes('"subtype":"microcompact_boundary"')) micro++;
      }
    }
    const all = sessions.flatMap((s) => s.compactions);
    expect(all.filter((c) => c.form === 'boundary').length).toBe(boundaries);
    expect(all.filter((c) => c.kind === 'micro').length).toBe(micro);
    expect(boundaries).toBeGreaterThan(0);
  });

  it('finds the sidechains of every storage era', () => {
    const all = sessions.flatMap((s) => s.sidechains);
    expect(new Set(all.map((x) => x.storage))).toEqual(new Set(['inline', 'flat', 'subagents']));
    expect(all.filter((x) => x.role === 'warmup').length).toBeGreaterThan(0);
    expect(all.some((x) => x.status === 'missing')).toBe(true);
  });

  it('totals tokens as an independent per-response count does', () => {
    const seen = new Map<string, number[]>();
    for (const bytes of files.values()) {
      for (const line of bytes.toString('utf8').split('\n')) {
        let record: any;
        try {
          record = JSON.parse(line);
        } catch {
          continue;
        }
        const u = record?.message?.usage;
        if (record?.type !== 'assistant' || !u || !record.uuid) continue;
        const key =
          record.message.id || record.requestId ? `${record.message.id}:${record.requestId}` : record.uuid;
        const values = [
          u.input_tokens ?? 0,
          u.output_tokens ?? 0,
          u.cache_creation_input_tokens ?? 0,
          u.cache_read_input_tokens ?? 0,
        ];
        const prev = seen.get(key);
        seen.set(key, prev ? prev.map((v, i) => Math.max(v, values[i]!)) : values);
      }
    }
    const expected = [0, 0, 0, 0];
    for (const v of seen.values()) {
      for (const [i, x] of v.entries()) expected[i]! += x;
    }
    const got = usageAcross(sessions);
    expect([
      got.inputTokens,
      got.outputTokens,
      got.cacheCreationInputTokens,
      got.cacheReadInputTokens,
    ]).toEqual(expected);
  });
});
