import { describe, expect, it } from 'vitest';
import { compactionTokensText } from '../src/views/charts/compaction-after.js';
import { timelineSeries } from '../src/views/charts/timeline.js';
import { timelineSvg } from '../src/views/charts/timeline-svg.js';
import { answer, prompt, sessionOf, tick } from './helpers/records.js';

/** A compact boundary as Claude Code writes it: tokens before, none after. */
function boundary(uuid: string, logicalParent: string) {
  return {
    type: 'system',
    subtype: 'compact_boundary',
    uuid,
    parentUuid: null,
    logicalParentUuid: logicalParent,
    timestamp: tick(),
    sessionId: 'S',
    content: 'Conversation compacted',
    level: 'info',
    compactMetadata: { trigger: 'auto', preTokens: 170_251 },
  };
}

/** An assistant line whose context (input + cache) is `context` tokens. */
function sized(uuid: string, parent: string, context: number, model = 'claude-sonnet-4-5') {
  const line = answer(uuid, parent, `answer ${uuid}`) as {
    timestamp: string;
    message: Record<string, unknown>;
  };
  line.message.model = model;
  line.message.usage = { input_tokens: 10, cache_read_input_tokens: context - 10, output_tokens: 5 };
  return line;
}

//   p1 → a1 (150k) → a2 (synthetic) ; boundary (logical a2) → s (summary prompt) → a3 (41,200)
async function compacted() {
  tick(60);
  return sessionOf([
    prompt('p1', null),
    sized('a1', 'p1', 150_000),
    sized('a2', 'a1', 0, '<synthetic>'),
    boundary('b1', 'a2'),
    prompt('s1', 'b1', 'This session is being continued from a previous conversation.', {
      isCompactSummary: true,
    }),
    sized('a3', 's1', 41_200),
  ]);
}

describe('the context timeline', () => {
  it('does not plot responses Claude Code made up as calls', async () => {
    const series = timelineSeries(await compacted());
    expect(series.calls.map((c) => c.context)).toEqual([150_000, 41_200]);
  });

  it('takes the tokens after a compaction from the next response, never "?"', async () => {
    const session = await compacted();
    const series = timelineSeries(session);
    expect(series.markers).toEqual([
      expect.objectContaining({ preTokens: 170_251, postTokens: 41_200, postFromNext: true }),
    ]);
    const svg = timelineSvg(series).value;
    expect(svg).toContain('170,251 → 41,200 tokens (next response)');
    expect(svg).not.toContain('?');
    expect(compactionTokensText({ preTokens: 170_251, postTokens: null })).toBe('170,251 tokens before');
    expect(compactionTokensText({ preTokens: 170_251, postTokens: null }, 41_200)).toBe(
      '170,251 → 41,200 tokens (next response)',
    );
  });

  it('draws the context window as a line: 200k, or 1M once a call went past it', async () => {
    const series = timelineSeries(await compacted());
    expect(series.contextLimit).toBe(200_000);
    expect(timelineSvg(series).value).toContain('context window 200k');
    const big = timelineSeries(await sessionOf([prompt('q', null), sized('b', 'q', 450_000)]));
    expect(big.contextLimit).toBe(1_000_000);
  });

  it('puts time on the x axis, each call a mark at its time', async () => {
    // three calls: the second 1 s after the first, the third 1 h later
    const third = sized('c3', 'c2', 3000);
    const lines = [prompt('p', null), sized('c1', 'p', 1000), sized('c2', 'c1', 2000)] as const;
    third.timestamp = new Date(
      Date.parse((lines[2] as { timestamp: string }).timestamp) + 3_600_000,
    ).toISOString();
    const series = timelineSeries(await sessionOf([...lines, third]));
    expect(series.timed).toBe(true);
    const svg = timelineSvg(series).value;
    expect(svg).toContain('time (UTC)');
    const xs = [...svg.matchAll(/<circle class="tl-dot" cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs).toHaveLength(3);
    // the hour's gap takes the width, the second apart calls are almost on top of each other
    expect(xs[2]! - xs[1]!).toBeGreaterThan(100 * (xs[1]! - xs[0]!));
  });
});
