/**
 * A projects folder with planted secrets in every place a transcript can carry one: user text, tool input
 * (values and JSON keys), tool output, file paths (the working directory, paths in tool input), model names,
 * and a sub-agent (its description, prompt, answer and `.meta.json`), so that agent pages carry them too.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlantedSecret } from './planted-secrets.js';

/**
 * Writes one session per planted secret under `root/-home-dev-secrets/`.
 *
 * @param root The projects folder to create.
 * @param secrets The secrets to plant.
 */
export async function writeSecretProjects(root: string, secrets: readonly PlantedSecret[]): Promise<void> {
  const project = join(root, '-home-dev-secrets');
  await mkdir(project, { recursive: true });
  for (const [i, secret] of secrets.entries()) {
    const sessionId = `5e55a0e5-0000-4000-8000-${String(i).padStart(12, '0')}`;
    await writeFile(join(project, `${sessionId}.jsonl`), lines(sessionId, secret));
    await mkdir(join(project, sessionId, 'subagents'), { recursive: true });
    const agent = join(project, sessionId, 'subagents', `agent-${AGENT_ID}`);
    await writeFile(`${agent}.jsonl`, agentLines(sessionId, secret));
    const meta = { agentType: 'general-purpose', description: `Check ${secret.text}`, toolUseId: 'toolu_2' };
    await writeFile(`${agent}.meta.json`, JSON.stringify(meta));
  }
}

/**
 * Writes a project folder named after a secret (`-home-dev-<secret>`) with one session, whose working directory
 * is the secret's folder: its name must not reach a page, a path or a page's address, lower-cased or not.
 *
 * @param root The projects folder.
 * @param value The secret, as the folder name holds it.
 * @param n Makes the session's id distinct.
 */
export async function writeSecretFolder(root: string, value: string, n: number): Promise<void> {
  const project = join(root, `-home-dev-${value}`);
  await mkdir(project, { recursive: true });
  const sessionId = `f01de55e-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const record = {
    sessionId,
    version: '2.1.39',
    userType: 'external',
    isSidechain: false,
    cwd: `/home/dev/${value}`,
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    timestamp: '2026-02-10T09:14:01.000Z',
    message: { role: 'user', content: 'list the files here' },
  };
  await writeFile(join(project, `${sessionId}.jsonl`), `${JSON.stringify(record)}\n`);
}

function lines(sessionId: string, secret: PlantedSecret): string {
  const base = { sessionId, version: '2.1.39', userType: 'external', isSidechain: false };
  const cwd = `/home/dev/${secret.text}`;
  const at = (n: number) => `2026-02-10T09:14:0${n}.000Z`;
  const records = [
    {
      ...base,
      cwd,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: at(1),
      message: { role: 'user', content: `please use ${secret.text} now` },
    },
    {
      ...base,
      cwd,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: at(2),
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: `claude-${secret.text}`,
        content: [
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'Bash',
            input: {
              command: `echo ${secret.text}`,
              file_path: `/home/dev/${secret.text}/config.env`,
              [secret.text]: 'a key',
            },
          },
        ],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    {
      ...base,
      cwd,
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      timestamp: at(3),
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `output:\n${secret.text}\n` }],
      },
      toolUseResult: { stdout: `${secret.text}\n`, stderr: '', interrupted: false },
    },
    {
      ...base,
      cwd,
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'u2',
      timestamp: at(4),
      message: {
        id: 'msg_2',
        role: 'assistant',
        model: 'claude-opus-4-7',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_2',
            name: 'Agent',
            input: {
              subagent_type: 'general-purpose',
              description: `Check ${secret.text}`,
              prompt: `Check that ${secret.text} works.`,
            },
          },
        ],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    {
      ...base,
      cwd,
      type: 'user',
      uuid: 'u3',
      parentUuid: 'a2',
      timestamp: at(7),
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: `It works: ${secret.text}\nagentId: ${AGENT_ID}`,
          },
        ],
      },
      toolUseResult: { status: 'completed', agentId: AGENT_ID, agentType: 'general-purpose' },
    },
    { ...base, cwd, type: 'summary', summary: `Session about ${secret.text}`, leafUuid: 'u3' },
  ];
  // The raw text of an invalid line and of a duplicate line (both become diagnostics that quote them).
  const invalid = `{"type":"user","uuid":"bad1","message":{"content":${JSON.stringify(`broken ${secret.text}`)}`;
  const lines = [...records.map((r) => JSON.stringify(r)), invalid, JSON.stringify(records[0])];
  return `${lines.join('\n')}\n`;
}

const AGENT_ID = 'a5ec7e7a5ec7e7a51';

function agentLines(sessionId: string, secret: PlantedSecret): string {
  const base = { sessionId, version: '2.1.39', userType: 'external', isSidechain: true, agentId: AGENT_ID };
  const cwd = '/home/dev/secrets';
  const records = [
    {
      ...base,
      cwd,
      type: 'user',
      uuid: 'g1',
      parentUuid: null,
      timestamp: '2026-02-10T09:14:05.000Z',
      message: { role: 'user', content: `Check that ${secret.text} works.` },
    },
    {
      ...base,
      cwd,
      type: 'assistant',
      uuid: 'g2',
      parentUuid: 'g1',
      timestamp: '2026-02-10T09:14:06.000Z',
      message: {
        id: 'msg_g2',
        role: 'assistant',
        model: `claude-${secret.text}`,
        content: [{ type: 'text', text: `It works: ${secret.text}` }],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
  ];
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}
