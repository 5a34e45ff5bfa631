/**
 * Agents as Claude Code writes them in 2026 (FORMAT.md §13): workflow runs, background agents and their answers,
 * failed spawns, task-list tools, new metadata records; and agent sets large and deep enough to show quadratic work.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSession } from '../src/index.js';
import { agentChain } from './agent-chain.js';
import { loadSessions } from './fixture-sessions.js';

const fixture = fileURLToPath(new URL('../../../fixtures/agents-2026/', import.meta.url));

describe('fixture agents-2026', async () => {
  const facts = JSON.parse(readFileSync(join(fixture, 'facts.json'), 'utf8'));
  const [id, want] = Object.entries<Record<string, any>>(facts.sessions)[0]!;
  const session = (await loadSessions(fixture)).find((s) => s.id === id)!;
  const by = new Map(session.sidechains.map((s) => [s.id, s]));
  const extra = want.agents2026;

  it('gives every sidechain its status: a failed spawn is failed, not missing', () => {
    expect(Object.fromEntries(session.sidechains.map((s) => [s.id, s.status]))).toEqual(extra.status);
  });

  it('links workflow agents through the run, not as orphans', () => {
    for (const [sid, link] of Object.entries(extra.links)) expect(by.get(sid)?.link, sid).toBe(link);
    expect(session.diagnostics.map((d) => d.code)).not.toContain('agent-not-spawned');
    const runs = (session.workflows ?? []).map((r) => ({
      runId: r.runId,
      taskId: r.taskId,
      spawnToolUseId: r.spawn?.toolUseId ?? null,
      status: r.status,
      phases: r.phases.map((p) => p.name),
      agents: r.agents,
      journalRecords: r.journal?.records ?? null,
    }));
    expect(runs).toEqual(extra.workflows);
  });

  it('reads the journal and the snapshot as run files, not transcripts', () => {
    const roles = session.files.map((f) => `${f.role} ${f.path.split('/').pop()}`);
    expect(roles).toContain('workflow journal.jsonl');
    expect(roles).toContain('workflow run-7f3a.json');
    expect(roles.filter((r) => r.startsWith('agent ')).length).toBe(3);
  });

  it('takes a background agent’s status and end from its answer, and says where it came back', () => {
    for (const [sid, answer] of Object.entries<Record<string, string>>(extra.background)) {
      const s = by.get(sid)!;
      expect(s.background?.answer).toMatchObject({
        via: answer.via,
        entryUuid: answer.entryUuid,
        status: answer.status,
      });
      expect(s.endedAt).toBe(answer.endedAt);
    }
    for (const [sid, name] of Object.entries(extra.names)) expect(by.get(sid)?.name).toBe(name);
  });

  it('counts every record type and calls none of the new ones unknown', () => {
    expect(session.recordTypes).toEqual(extra.recordTypes);
    expect(session.diagnostics.filter((d) => d.code === 'unknown-type')).toEqual([]);
    expect(session.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('agents at scale', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 0);

  it('links a chain of 20,000 nested agents (flat on disk) with their depths, in linear work', async () => {
    const session = await buildSession(agentChain(20_000));
    expect(session.sidechains).toHaveLength(20_000);
    expect(session.sidechains.every((s) => s.role === 'task' && s.status === 'completed')).toBe(true);
    expect(Math.max(...session.sidechains.map((s) => s.depth))).toBe(20_000);
  }, 60_000);

  it('finds and links 2,000 agent files of one session on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cctrail-agents-'));
    dirs.push(dir);
    const project = join(dir, '-home-dev-many');
    const sub = join(project, 'S', 'subagents');
    mkdirSync(sub, { recursive: true });
    const { manyAgents } = await import('./agent-chain.js');
    const source = manyAgents(2000);
    const text = async (s: { read(): AsyncIterable<Uint8Array> }) => {
      const parts: Uint8Array[] = [];
      for await (const chunk of s.read()) parts.push(chunk);
      return Buffer.concat(parts);
    };
    writeFileSync(join(project, 'S.jsonl'), await text(source.main!));
    for (const agent of source.agents)
      writeFileSync(join(sub, agent.path.split('/').pop()!), await text(agent));
    const [session] = await loadSessions(dir);
    expect(session!.files.filter((f) => f.role === 'agent')).toHaveLength(2000);
    expect(session!.sidechains.filter((s) => s.link === 'agent-id')).toHaveLength(2000);
  }, 60_000);
});

describe('workflow link by text', () => {
  it('links a run through "Task ID: <id>" in the result text when the result names no run', async () => {
    const { jsonl, memorySource, prompt, answer, toolResult, toolUse } = await import('./helpers.js');
    const main = jsonl([
      prompt('p', null),
      answer('c', 'p', toolUse('W1', 'Workflow', { workflow: 'x' }), 'm1'),
      toolResult('r', 'c', 'W1', {
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'W1', content: 'Started.\nTask ID: tk9' }],
        },
      }),
    ]);
    const agent = jsonl([prompt('wp', null, 'phase one', { isSidechain: true })]);
    const session = await buildSession({
      id: 'S',
      main: memorySource('S.jsonl', main),
      agents: [memorySource('S/subagents/workflows/run-9/agent-w9.jsonl', agent)],
      workflowFiles: [{ path: 'S/workflows/run-9.json', text: '{"taskId":"tk9","phases":["plan"]}' }],
    });
    expect(session.sidechains[0]).toMatchObject({
      link: 'workflow-run',
      workflowRun: 'run-9',
      spawn: { toolUseId: 'W1' },
    });
    expect(session.workflows?.[0]).toMatchObject({
      runId: 'run-9',
      taskId: 'tk9',
      phases: [{ name: 'plan' }],
    });
  });
});
