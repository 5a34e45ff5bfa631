import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES, fixtureScenarios } from './helpers.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-cli-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

const hasFixtures = fixtureScenarios().length > 0;

describe('help and version', () => {
  it('prints help with --help', async () => {
    const run = await cctrail(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: cctrail <command>');
    for (const command of ['export', 'stats', 'report', 'hook']) expect(run.stdout).toContain(`  ${command}`);
  });

  it.each(['export', 'stats', 'report'])('prints help with examples for %s', async (command) => {
    for (const args of [
      [command, '--help'],
      ['help', command],
      [command, '-h'],
    ]) {
      const run = await cctrail(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: cctrail ${command}`);
      expect(run.stdout).toContain('Examples:');
      expect(run.stdout).toContain('--since');
    }
  });
  it('prints help with examples for hook', async () => {
    for (const args of [
      ['hook', '--help'],
      ['help', 'hook'],
      ['hook', 'install', '-h'],
    ]) {
      const run = await cctrail(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: cctrail hook [install|uninstall|status|run]');
      expect(run.stdout).toContain('--archive DIR');
    }
  });

  it('prints the version', async () => {
    const run = await cctrail(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('errors: one line, no stack trace, exit 2', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown command', ['frobnicate'], /^cctrail: unknown command frobnicate\n/],
    ['an unknown option', ['stats', '--frob'], /^cctrail: unknown option --frob\nRun `cctrail stats --help`/],
    ['a missing value', ['export', '-o'], /^cctrail: option -o, --output needs a value/],
    ['export without -o', ['export', 'x'], /^cctrail: export needs an output/],
    [
      'a missing path',
      ['stats', 'no/such/folder'],
      /^cctrail: cannot read no\/such\/folder: no such file or folder\n/,
    ],
    ['a bad date', ['stats', '--since', 'yesterday'], /^cctrail: --since yesterday is not a date\n/],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const run = await cctrail(args, { cwd: work });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });

  it.skipIf(!hasFixtures)('an output that is a file', async () => {
    const file = join(work, 'a-file');
    await writeFile(file, '');
    const run = await cctrail(['export', join(FIXTURES, 'linear'), '-o', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cctrail: the output .*a-file is a file; give a folder/);
  });

  it.skipIf(!hasFixtures)('a project folder named like an option', async () => {
    const run = await cctrail(['stats', '-home-dev-linear'], { cwd: join(FIXTURES, 'linear') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('To read the folder -home-dev-linear, write ./-home-dev-linear');
    const fixed = await cctrail(['stats', '--', '-home-dev-linear'], { cwd: join(FIXTURES, 'linear') });
    expect(fixed.code).toBe(0);
  });

  it('a folder with no transcripts', async () => {
    const empty = join(work, 'empty');
    await mkdir(empty, { recursive: true });
    const run = await cctrail(['stats', empty]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cctrail: no Claude Code transcripts found in /);
  });

  it('a file that is not a transcript', async () => {
    const text = join(work, 'notes.txt');
    await writeFile(text, 'hello\n');
    let run = await cctrail(['stats', text]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/notes\.txt is not a Claude Code transcript \(expected a \.jsonl file\)/);
    const jsonl = join(work, 'proj', 'notes.jsonl');
    await mkdir(join(work, 'proj'), { recursive: true });
    await writeFile(jsonl, 'hello\n[1,2]\n');
    run = await cctrail(['stats', jsonl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /notes\.jsonl is not a Claude Code transcript: no line is a transcript record/,
    );
  });

  it.skipIf(process.getuid?.() === 0)('a folder without permission', async () => {
    const locked = join(work, 'locked');
    await mkdir(locked, { recursive: true });
    await writeFile(join(locked, 's.jsonl'), '{}\n');
    const { chmod } = await import('node:fs/promises');
    await chmod(locked, 0o000);
    try {
      const run = await cctrail(['stats', locked]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/permission denied/);
    } finally {
      await chmod(locked, 0o755);
    }
  });

  it('the default folder when it does not exist', async () => {
    const run = await cctrail(['stats'], { env: { CLAUDE_CONFIG_DIR: join(work, 'nothing-here') } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(work, 'nothing-here', 'projects'));
    expect(run.stderr).toContain('CLAUDE_CONFIG_DIR');
  });
});

describe('diagnostics and --strict', () => {
  const broken = join(work, 'broken', '-home-dev-broken');
  const good = JSON.stringify({
    type: 'user',
    uuid: 'a',
    parentUuid: null,
    sessionId: 's1',
    timestamp: '2025-01-01T00:00:00.000Z',
    message: { role: 'user', content: 'hi' },
  });

  it('counts diagnostics on one line, lists them with --verbose, exits 1 under --strict', async () => {
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, 's1.jsonl'), `${good}\n{not json\n`);
    const plain = await cctrail(['stats', join(work, 'broken')]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(
      /diagnostics: 1 error, 0 warnings, \d+ info in 1 session \(--verbose lists them\)/,
    );

    const verbose = await cctrail(['stats', '--verbose', join(work, 'broken')]);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(/^-home-dev-broken\/s1\.jsonl:2 {2}error {2}.+ {2}\[invalid-json\]$/m);

    const strict = await cctrail(['stats', '--strict', join(work, 'broken')]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('[invalid-json]');
    expect(strict.stdout).toContain('Sessions');
  });

  it.skipIf(!hasFixtures)('exits 0 under --strict when there is no error', async () => {
    const run = await cctrail(['stats', '--strict', join(FIXTURES, 'linear')]);
    expect(run.code).toBe(0);
  });
});

describe('default input', () => {
  it('reads $CLAUDE_CONFIG_DIR/projects', async () => {
    const config = join(work, 'config');
    await mkdir(join(config, 'projects', '-home-x'), { recursive: true });
    await writeFile(
      join(config, 'projects', '-home-x', 's2.jsonl'),
      `${JSON.stringify({ type: 'user', uuid: 'b', parentUuid: null, sessionId: 's2', message: { role: 'user', content: 'x' } })}\n`,
    );
    const run = await cctrail(['stats', '--json'], { env: { CLAUDE_CONFIG_DIR: config } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).sessions[0].file).toBe('-home-x/s2.jsonl');
  });
});
