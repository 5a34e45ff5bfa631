// The fixture of the LiveTails tests: a session with an agent, its files in a projects folder, and the pages of
// its report as built (the last page of the transcript and the agent's page drawn from the files).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildSession } from '@cctrail/core';
import { escapeHtml, loadLiveRenderer, renderLiveTranscript } from '@cctrail/report';
import { privacyTransform } from '../../src/privacy/transform.js';
import { LiveTails } from '../../src/serve/live-tails.js';

const work = mkdtempSync(join(tmpdir(), 'cctrail-tails-'));

/** Removes the fixture's folder. */
export function removeWork(): void {
  rmSync(work, { recursive: true, force: true });
}

const SESSION = 'AbC-123';
export const input = join(work, 'projects');
const site = join(work, 'site');
export const main = join(input, '-home-app', `${SESSION}.jsonl`);
export const agent = join(input, '-home-app', SESSION, 'subagents', 'agent-X1.jsonl');
const PRIVACY = privacyTransform({ redact: true, shortHome: false });
export const KEY = `sk-ant-api03-${'x7Kq2'.repeat(18)}AA`;
export const P3 = '/s/app/abc-123/p3/';
export const AGENT = '/s/app/abc-123/agent/agent-x1/';

/** A prompt, or with `answer` an answer, chained to `parent`; in an agent's file with `agentId`. */
export function record(
  uuid: string,
  parent: string | null,
  text = uuid,
  o: { answer?: boolean; agentId?: string } = {},
) {
  const base = { uuid, parentUuid: parent, sessionId: SESSION, timestamp: '2026-01-01T10:00:00.000Z' };
  const side = o.agentId ? { isSidechain: true, agentId: o.agentId } : {};
  const line = o.answer
    ? {
        ...base,
        ...side,
        type: 'assistant',
        message: { id: `m-${uuid}`, role: 'assistant', content: [{ type: 'text', text }] },
      }
    : { ...base, ...side, type: 'user', message: { role: 'user', content: text } };
  return `${JSON.stringify(line)}\n`;
}

/** A transcript source of a file's bytes now (or of `text`). */
function source(file: string, text = readFileSync(file, 'utf8')) {
  return {
    path: file,
    read: async function* () {
      yield Buffer.from(text);
    },
  };
}

/**
 * The transcript of a file's lines as the report draws it on the page at `page`, inside a page; with `agents`,
 * the session's agent files and their sidecars are read with it.
 */
export async function drawn(
  file: string,
  page: string,
  scope: 'main' | 'agent',
  text = readFileSync(file, 'utf8'),
  agents: string[] = [],
) {
  const id = basename(file, '.jsonl');
  const session = await buildSession(
    scope === 'main'
      ? {
          id,
          main: source(file, text),
          agents: agents.map((a) => source(a)),
          agentMeta: agents.map((a) => {
            const path = a.replace(/\.jsonl$/, '.meta.json');
            return { path, text: readFileSync(path, 'utf8') };
          }),
        }
      : { id: SESSION, main: null, agents: [source(file, text)] },
  );
  const [, , project = '', slug = ''] = page.split('/');
  const live = renderLiveTranscript(PRIVACY(session), scope, {
    page: { route: page.slice(1), project, session: slug },
  });
  return `<body><main><div class="transcript">${live?.html}</div></main></body>`;
}

export function writePage(path: string, html = '<main></main>'): void {
  mkdirSync(join(site, path), { recursive: true });
  writeFileSync(join(site, path, 'index.html'), html);
}

export function pageHtml(path: string): string {
  return readFileSync(join(site, path, 'index.html'), 'utf8');
}

/** Writes the session's files and the pages of the site as built. */
export async function writeSite(): Promise<void> {
  await loadLiveRenderer();
  mkdirSync(join(input, '-home-app', SESSION, 'subagents'), { recursive: true });
  writeFileSync(main, record('u1', null, 'first') + record('u2', 'u1', 'an **answer**', { answer: true }));
  writeFileSync(agent, record('a1', null, 'task', { agentId: 'X1' }));
  // The session's transcript has three pages, the last one showing the file; its agent one; another project
  // has no such session.
  for (const p of ['s/app/abc-123', 's/app/abc-123/p2']) writePage(p);
  writePage(P3, await drawn(main, P3, 'main'));
  writePage(AGENT, await drawn(agent, AGENT, 'agent'));
  writePage('s/other/def-456');
}

export function tails(settleMs = 60_000, settled: string[][] = []): LiveTails {
  const t = new LiveTails({
    root: site,
    privacy: () => PRIVACY,
    settle: (files) => settled.push(files),
    settleMs,
    render: { transcript: renderLiveTranscript, escape: escapeHtml },
  });
  t.remember([input]);
  return t;
}
