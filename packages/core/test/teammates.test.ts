/**
 * Teammates written as their own session file (FORMAT.md §13.2), and background agents answered through
 * `TaskOutput` or an `<agent-notification>` (§13.3): the fixtures `teammates` and `task-output`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { totalUsage } from '../src/archive/duplicates.js';
import { linkTeammates } from '../src/archive/index.js';
import { usagesOf } from '../src/archive/response-table.js';
import { conversationInputs, FIXTURES, loadSessions } from './fixture-sessions.js';

const usageOf = (u: ReturnType<typeof totalUsage>) => ({
  inputTokens: u.inputTokens,
  outputTokens: u.outputTokens,
  cacheCreationInputTokens: u.cacheCreationInputTokens,
  cacheReadInputTokens: u.cacheReadInputTokens,
  responses: u.responses,
});

describe('fixture teammates', async () => {
  const dir = join(FIXTURES, 'teammates');
  const facts = JSON.parse(readFileSync(join(dir, 'facts.json'), 'utf8'));
  const sessions = await loadSessions(dir);
  const links = linkTeammates(conversationInputs(sessions));

  it('links the named spawn to the teammate’s own file, with its status, times and last answer', () => {
    expect(links.map(({ usage, cost, project, ...rest }) => rest)).toEqual(facts.teammates);
  });

  it('finds the same links in a structure-only build', async () => {
    expect(linkTeammates(conversationInputs(await loadSessions(dir, false)))).toEqual(links);
  });

  it('leaves a named spawn whose teammate wrote no file missing', () => {
    for (const [lead, ids] of Object.entries<string[]>(facts.unlinkedSpawns)) {
      const session = sessions.find((s) => s.id === lead)!;
      for (const id of ids) {
        expect(session.sidechains.find((s) => s.id === id)?.status).toBe('missing');
        expect(links.some((l) => l.lead === lead && l.sidechain === id)).toBe(false);
      }
    }
  });

  it('keeps the teammate a session of its own and counts its usage once: in its file, not in the lead', () => {
    // The rule: a teammate's usage belongs to its own file's session; the lead's spawn only references it.
    const lead = sessions.find((s) => s.id === facts.teammates[0].lead)!;
    const spawn = lead.sidechains.find((s) => s.id === facts.teammates[0].sidechain)!;
    expect(spawn.usage.responses).toBe(0);
    const project = totalUsage(conversationInputs(sessions).map((s) => usagesOf(s.digest.responses)));
    expect(usageOf(project)).toEqual(facts.projectUsage);
    const teammate = sessions.find((s) => s.id === facts.teammates[0].session)!;
    expect(usageOf(project).responses).toBe(lead.usage.total.responses + teammate.usage.total.responses);
    expect(links[0]!.usage).toEqual(teammate.usage.total);
  });

  it('links nothing when no file is a teammate, and never links a file to itself or across projects', () => {
    const plain = conversationInputs(sessions).filter((s) => s.id !== facts.teammates[0].session);
    expect(linkTeammates(plain)).toEqual([]);
    const moved = conversationInputs(sessions).map((s) =>
      s.id === facts.teammates[0].session ? { ...s, project: 'elsewhere' } : s,
    );
    expect(linkTeammates(moved)).toEqual([]);
  });
});

describe('fixture task-output', async () => {
  const dir = join(FIXTURES, 'task-output');
  const facts = JSON.parse(readFileSync(join(dir, 'facts.json'), 'utf8'));
  const [id, want] = Object.entries<Record<string, any>>(facts.sessions)[0]!;
  const session = (await loadSessions(dir)).find((s) => s.id === id)!;

  it('takes each background agent’s status and end from where its answer came back', () => {
    for (const [sid, answer] of Object.entries<Record<string, string>>(want.background)) {
      const sidechain = session.sidechains.find((s) => s.id === sid)!;
      expect(sidechain.background?.answer, sid).toMatchObject({
        via: answer.via,
        entryUuid: answer.entryUuid,
        status: answer.status,
      });
      expect(sidechain.status, sid).toBe(answer.sidechainStatus);
      expect(sidechain.endedAt, sid).toBe(answer.endedAt);
    }
  });
});
