/**
 * Teammates written as their own session file (FORMAT.md §13.2), and background agents answered through
 * `TaskOutput` or an `<agent-notification>` (§13.3): the fixtures `teammates` and `task-output`.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  buildSession,
  type ConversationInput,
  linkTeammates,
  type Session,
  statsDigest,
  totalUsage,
} from '../src/index.js';
import { discover, sessionSource } from '../src/node/index.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

async function load(dir: string, content = true): Promise<Session[]> {
  const found = await discover([dir]);
  const out: Session[] = [];
  for (const project of found.projects)
    for (const s of project.sessions)
      out.push(await buildSession(await sessionSource(s, (p) => relative(dir, p)), { content }));
  return out;
}

const inputs = (sessions: readonly Session[]): ConversationInput[] =>
  sessions.map((s) => ({ id: s.id, project: s.project.slug, title: s.title, digest: statsDigest(s) }));

const usageOf = (u: ReturnType<typeof totalUsage>) => ({
  inputTokens: u.inputTokens,
  outputTokens: u.outputTokens,
  cacheCreationInputTokens: u.cacheCreationInputTokens,
  cacheReadInputTokens: u.cacheReadInputTokens,
  responses: u.responses,
});

describe('fixture teammates', async () => {
  const dir = join(fixtures, 'teammates');
  const facts = JSON.parse(readFileSync(join(dir, 'facts.json'), 'utf8'));
  const sessions = await load(dir);
  const links = linkTeammates(inputs(sessions));

  it('links the named spawn to the teammate’s own file, with its status, times and last answer', () => {
    expect(links.map(({ usage, cost, project, ...rest }) => rest)).toEqual(facts.teammates);
  });

  it('finds the same links in a structure-only build', async () => {
    expect(linkTeammates(inputs(await load(dir, false)))).toEqual(links);
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
    const project = totalUsage(inputs(sessions).map((s) => s.digest.responses));
    expect(usageOf(project)).toEqual(facts.projectUsage);
    const teammate = sessions.find((s) => s.id === facts.teammates[0].session)!;
    expect(usageOf(project).responses).toBe(lead.usage.total.responses + teammate.usage.total.responses);
    expect(links[0]!.usage).toEqual(teammate.usage.total);
  });

  it('links nothing when no file is a teammate, and never links a file to itself or across projects', () => {
    const plain = inputs(sessions).filter((s) => s.id !== facts.teammates[0].session);
    expect(linkTeammates(plain)).toEqual([]);
    const moved = inputs(sessions).map((s) =>
      s.id === facts.teammates[0].session ? { ...s, project: 'elsewhere' } : s,
    );
    expect(linkTeammates(moved)).toEqual([]);
  });
});

describe('fixture task-output', async () => {
  const dir = join(fixtures, 'task-output');
  const facts = JSON.parse(readFileSync(join(dir, 'facts.json'), 'utf8'));
  const [id, want] = Object.entries<Record<string, any>>(facts.sessions)[0]!;
  const session = (await load(dir)).find((s) => s.id === id)!;

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
