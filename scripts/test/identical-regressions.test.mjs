// Differences from 8ce2fd6's outputs that `pnpm check:identical --ref 8ce2fd6` finds and that are not intended
// (docs/identical-8ce2fd6.md, "Not intended"). Each is a `test.fails` until its fix lands in the package that owns
// the code: then the test passes, `test.fails` reports it, and it becomes a plain test.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'packages/cli/dist/index.js');

// fixtures/hostile-content's log: a whole GitHub token ends a line, a timestamp starts the next.
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}f6G7h8`;
const LOG = `2026-04-21T08:02:00Z DEBUG leaked: ${TOKEN}\n2026-04-21T08:02:01Z INFO GET /api/items/121 200 880ms`;

test
  .skipIf(!existsSync(CLI))
  .fails(
    'the wrapped-token rule leaves the next line of a whole token alone (#31, own-shapes.ts WRAPPED_TOKEN)',
    async () => {
      const { redactText } = await import(CLI);
      expect(TOKEN).toHaveLength(40);
      const { text } = redactText(LOG);
      expect(text).not.toContain(TOKEN);
      expect(text).toContain('\n2026-04-21T08:02:01Z INFO GET /api/items/121');
    },
  );
