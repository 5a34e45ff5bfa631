import { archiveStats } from '@cctrail/core/archive';
import { describe, expect, it } from 'vitest';
import { renderStats } from '../src/commands/stats-tables.js';
import { styleFor } from '../src/terminal/terminal.js';

const plain = styleFor({ isTTY: false } as unknown as NodeJS.WriteStream, {});

describe('renderStats', () => {
  it('renders an empty selection without tables of nothing', () => {
    expect(renderStats(archiveStats([]), plain)).toMatchInlineSnapshot(`
      "Sessions
        none

      Totals
        0 sessions, 0 entries from 0 lines, 0 forks (0 abandoned entries), 0 sidechains
        branch points: 0 rewinds, 0 retries, 0 side commands, 0 artefacts
        tools: 0 calls, 0 paired, 0 errors, 0 without result
        tokens: 0 input, 0 output, 0 cache write, 0 cache read (0 API responses)
        cost: $0.00
        prices: @pydantic/genai-prices 0.1.8 (2026-09-23), USD

      Compactions
        none
      "
    `);
  });
});
