// The main job: a report from ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects) when it holds transcripts,
// else from the bundled fixtures. Extra arguments go to `cctrail report`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Whether a projects folder holds at least one transcript (`<slug>/*.jsonl`). */
function hasTranscripts(dir) {
  if (!existsSync(dir)) return false;
  try {
    return readdirSync(dir, { withFileTypes: true }).some(
      (project) =>
        project.isDirectory() && readdirSync(join(dir, project.name)).some((f) => f.endsWith('.jsonl')),
    );
  } catch {
    return false;
  }
}

const configured = process.env.CLAUDE_CONFIG_DIR ? join(process.env.CLAUDE_CONFIG_DIR, 'projects') : null;
const home = join(homedir(), '.claude', 'projects');
/**
 * The diagnostics the fixtures give on purpose, from their `facts.json` files: code → scenarios.
 *
 * @param dir The fixtures folder.
 */
function expectedDiagnostics(dir) {
  const codes = new Map();
  for (const scenario of readdirSync(dir).sort()) {
    const facts = join(dir, scenario, 'facts.json');
    if (!existsSync(facts)) continue;
    for (const session of Object.values(JSON.parse(readFileSync(facts, 'utf8')).sessions ?? {}))
      for (const code of session.diagnostics ?? [])
        codes.set(code, (codes.get(code) ?? new Set()).add(scenario));
  }
  return codes;
}

const input = [configured, home].find((p) => p && hasTranscripts(p)) ?? 'fixtures';
const fixtures = input === 'fixtures';
console.error(
  fixtures
    ? 'cctrail: no transcripts in ~/.claude/projects: building a report from the bundled fixtures (test transcripts, hostile on purpose)'
    : `cctrail: building a report from ${input}`,
);
const run = spawnSync(
  process.execPath,
  ['packages/cli/dist/bin.js', 'report', input, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
if (fixtures && run.status === 0) {
  const codes = expectedDiagnostics(input);
  const damaged = [...codes].filter(([, scenarios]) => scenarios.has('damaged')).map(([code]) => code);
  console.error(
    [
      '',
      `The diagnostics above are expected: the fixtures are written to give them (${codes.size} kinds, listed in each`,
      `fixtures/<scenario>/facts.json). The errors come from fixtures/damaged, broken on purpose (${damaged.join(', ')}).`,
      '`pnpm report --verbose` lists every diagnostic with its file and line.',
    ].join('\n'),
  );
}
process.exit(run.status ?? 1);
