import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail } from '../helpers.js';
import { gitleaksExamples } from './gitleaks-examples.js';
import { issueShapes } from './issue-shapes.js';
import { plantedSecrets } from './planted-secrets.js';
import { writeSecretFolder, writeSecretProjects } from './secret-transcripts.js';

const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../../apps/report/dist/index.js', import.meta.url)),
);
const work = await mkdtemp(join(tmpdir(), 'cctrail-secrets-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);
// The earlier shapes, those of #31, and one example for each of gitleaks' rules that has one.
const secrets = [
  ...plantedSecrets(3),
  ...issueShapes(3),
  ...gitleaksExamples(3).map(({ id, text, value }) => ({ kind: `gitleaks ${id}`, text, value })),
];
const projects = join(work, 'projects');
await writeSecretProjects(projects, secrets);
// Project folders named after a secret (#31: a broken page, the secret lower-cased in page addresses).
const folders = [
  { kind: 'folder-github', value: ['ghp_', 'Q7mZ2xK9pL4vB8nR3tY6wC1dF5gH0jS2aE4u'].join(''), text: '' },
  { kind: 'folder-aws', value: ['AKIA', 'Z7QW3ER5TY9UI2OP'].join(''), text: '' },
];
for (const [n, { value }] of folders.entries()) await writeSecretFolder(projects, value, n);

/** The planted values found in a text, as `kind: value`. */
function leaks(text: string): string[] {
  return [...secrets, ...folders].filter((s) => text.includes(s.value)).map((s) => `${s.kind}: ${s.value}`);
}

async function allFiles(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) parts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
  return parts.join('\n');
}

describe('planted secrets', () => {
  it("are at least 120 kinds, one for each of gitleaks' rules but a few", () => {
    expect(new Set(secrets.map((s) => s.kind)).size).toBe(secrets.length);
    expect(secrets.length).toBeGreaterThanOrEqual(120);
    expect(secrets.filter((s) => s.kind.startsWith('gitleaks ')).length).toBeGreaterThanOrEqual(210);
  });

  it('are all in the transcripts (the test plants what it greps for)', async () => {
    const names = await readdir(join(projects, '-home-dev-secrets'));
    let text = '';
    for (const name of names.filter((n) => n.endsWith('.jsonl')))
      text += await readFile(join(projects, '-home-dev-secrets', name), 'utf8');
    expect(leaks(text.replaceAll('\\u001b', '\u001b'))).toHaveLength(secrets.length);
  });

  it('never reach `stats --json`, model names and paths included', async () => {
    const run = await cctrail(['stats', projects, '--json']);
    expect(run.code).toBe(0);
    expect(leaks(run.stdout)).toEqual([]);
  });

  it('never reach an archive exported with --redact; without it, export says so', async () => {
    const out = join(work, 'archive');
    const redacted = await cctrail(['export', projects, '-o', out, '--redact']);
    expect(redacted.code).toBe(0);
    // Counted by rule: the rules named and the others add up to the total.
    const line = /(\d+) secrets redacted \(([^)]*)\)/.exec(redacted.stderr);
    expect(line).not.toBeNull();
    const parts = line![2]!.split(', ');
    expect(parts).toHaveLength(8);
    expect(parts.at(-1)).toMatch(/^\d+ by \d+ other rules$/);
    expect(parts.reduce((sum, part) => sum + Number.parseInt(part, 10), 0)).toBe(Number(line![1]));
    expect(leaks(await allFiles(out))).toEqual([]);
    const plain = await cctrail(['export', projects, '-o', join(work, 'plain')]);
    expect(plain.stderr).toContain('Secrets were NOT redacted');
    expect(leaks(await allFiles(join(work, 'plain'))).length).toBeGreaterThan(0);
  });

  it.skipIf(!REPORT_BUILT)(
    'never reach any file of the report folder',
    async () => {
      const out = join(work, 'site');
      const run = await cctrail(['report', projects, '-o', out]);
      expect(run.stderr).not.toContain('internal error');
      expect(run.code).toBe(0);
      const found: string[] = [];
      let agentPages = 0;
      for (const entry of await readdir(out, { withFileTypes: true, recursive: true })) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        if (/[/\\]agent[/\\]agent-[^/\\]+[/\\]index\.html$/.test(path)) agentPages++;
        for (const leak of leaks(await readFile(path, 'utf8')))
          found.push(`${path.slice(out.length)} ${leak}`);
        for (const leak of leaks(path)) found.push(`path ${leak}`);
        // Page addresses are made of lower-cased names.
        for (const s of [...secrets, ...folders])
          if (path.toLowerCase().includes(s.value.toLowerCase())) found.push(`lower-cased path ${s.kind}`);
      }
      expect(found).toEqual([]);
      // The sub-agents' pages were published and grepped too.
      expect(agentPages).toBe(secrets.length);
    },
    600_000,
  );
});
