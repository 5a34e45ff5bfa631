// The main job: a report from ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects) when it holds transcripts,
// else from the bundled fixtures. Extra arguments go to `cctrail report`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
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
const input = [configured, home].find((p) => p && hasTranscripts(p)) ?? 'fixtures';
console.error(`cctrail: building a report from ${input}`);
const run = spawnSync(
  process.execPath,
  ['packages/cli/dist/bin.js', 'report', input, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
