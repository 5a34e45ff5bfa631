/** A projects folder large enough that `export` and `report` take a while: sessions with long tool outputs. */

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `count` sessions of about `bytes` bytes each under `root/-home-dev-big/`.
 *
 * @param root The projects folder to create.
 */
export async function writeBigProjects(root: string, count: number, bytes: number): Promise<void> {
  const project = join(root, '-home-dev-big');
  await mkdir(project, { recursive: true });
  const output = 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n'.repeat(
    Math.ceil(bytes / 8 / 56),
  );
  for (let s = 0; s < count; s++) {
    const sessionId = `b1900000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const base = {
      sessionId,
      cwd: '/home/dev/big',
      version: '2.1.39',
      userType: 'external',
      isSidechain: false,
    };
    const records: object[] = [];
    let parent: string | null = null;
    for (let i = 0; i < 8; i++) {
      const at = `2026-02-10T09:${String(10 + i).padStart(2, '0')}:00.000Z`;
      const call = `toolu_${s}_${i}`;
      records.push(
        {
          ...base,
          type: 'user',
          uuid: `u${i}`,
          parentUuid: parent,
          timestamp: at,
          message: { role: 'user', content: `step ${i}` },
        },
        {
          ...base,
          type: 'assistant',
          uuid: `a${i}`,
          parentUuid: `u${i}`,
          timestamp: at,
          message: {
            id: `msg_${s}_${i}`,
            role: 'assistant',
            model: 'claude-opus-4-1',
            content: [{ type: 'tool_use', id: call, name: 'Bash', input: { command: `cat file${i}` } }],
            usage: { input_tokens: 100 + i, output_tokens: 10 },
          },
        },
        {
          ...base,
          type: 'user',
          uuid: `r${i}`,
          parentUuid: `a${i}`,
          timestamp: at,
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: call, content: output }] },
        },
      );
      parent = `r${i}`;
    }
    await writeFile(
      join(project, `${sessionId}.jsonl`),
      `${records.map((r) => JSON.stringify(r)).join('\n')}\n`,
    );
  }
}
