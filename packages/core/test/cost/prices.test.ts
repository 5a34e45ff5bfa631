import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { calcPrice, findProvider } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import { priceSnapshot } from '../../scripts/snapshot-prices.mjs';
import snapshot from '../../src/archive/anthropic-prices.json' with { type: 'json' };
import { PRICE_TABLE, responseCost } from '../../src/archive/prices.js';
import { emptyUsage } from '../../src/graph/usage.js';
import type { Usage } from '../../src/model/entry.js';

// Every figure below is worked out by hand from Anthropic's per-million-token prices, as the pinned table says.

function usage(more: Partial<Usage>): Usage {
  return { ...emptyUsage(), responses: 1, ...more };
}

/** 1,000 input, 2,000 cache writes (500 of them 1-hour), 10,000 cache reads, 500 output. */
const MIXED = usage({
  inputTokens: 1_000,
  cacheCreationInputTokens: 2_000,
  cacheCreation5mTokens: 1_500,
  cacheCreation1hTokens: 500,
  cacheReadInputTokens: 10_000,
  outputTokens: 500,
});
const AT = '2026-06-01T12:00:00.000Z';

describe('responseCost per Claude model family', () => {
  it.each([
    // input×in + 1,500×write5m + 500×write1h + 10,000×read + 500×out, per million
    ['claude-sonnet-4-5-20250929', 0.022125], // 3, 3.75, 6, 0.3, 15
    ['claude-sonnet-4-20250514', 0.022125],
    ['claude-3-7-sonnet-20250219', 0.022125],
    ['claude-sonnet-4-6', 0.022125],
    ['claude-opus-4-5-20251101', 0.036875], // 5, 6.25, 10, 0.5, 25
    ['claude-opus-4-6', 0.036875],
    ['claude-opus-4-7', 0.036875],
    ['claude-opus-4-1-20250805', 0.110625], // 15, 18.75, 30, 1.5, 75
    ['claude-opus-4-20250514', 0.110625],
    ['claude-haiku-4-5-20251001', 0.007375], // 1, 1.25, 2, 0.1, 5
    ['claude-3-5-haiku-20241022', 0.0059], // 0.8, 1, 1.6, 0.08, 4
  ])('%s costs $%f', (model, usd) => {
    expect(responseCost(model, MIXED, AT)).toBeCloseTo(usd, 12);
  });
});

describe('responseCost per token kind (Sonnet 4.5, 100,000 tokens each)', () => {
  it.each<[string, Partial<Usage>, number]>([
    ['input', { inputTokens: 100_000 }, 0.3],
    ['output', { outputTokens: 100_000 }, 1.5],
    ['cache read', { cacheReadInputTokens: 100_000 }, 0.03],
    ['5-minute cache write', { cacheCreationInputTokens: 100_000, cacheCreation5mTokens: 100_000 }, 0.375],
    ['1-hour cache write', { cacheCreationInputTokens: 100_000, cacheCreation1hTokens: 100_000 }, 0.6],
    ['cache write without a split (5-minute price)', { cacheCreationInputTokens: 100_000 }, 0.375],
  ])('%s', (_kind, tokens, usd) => {
    expect(responseCost('claude-sonnet-4-5-20250929', usage(tokens), AT)).toBeCloseTo(usd, 12);
  });

  it('prices a prompt over 200,000 tokens (input + cache) at the long-context rates', () => {
    // 1,000×6 + 1,500×7.5 + 500×12 + 250,000×0.6 + 500×22.5 = 184,500 per million
    const long = { ...MIXED, cacheReadInputTokens: 250_000 };
    expect(responseCost('claude-sonnet-4-5-20250929', long, AT)).toBeCloseTo(0.1845, 12);
  });

  it('takes a price that changed on a date as of the response', () => {
    // Opus 4.6 before 2026-03-13 had long-context rates: 1,000×10 + 1,500×12.5 + 500×20 + 250,000×1 + 500×37.5
    const long = { ...MIXED, cacheReadInputTokens: 250_000 };
    expect(responseCost('claude-opus-4-6', long, '2026-03-01T00:00:00Z')).toBeCloseTo(0.3075, 12);
    // From then on, one rate: 1,000×5 + 1,500×6.25 + 500×10 + 250,000×0.5 + 500×25
    expect(responseCost('claude-opus-4-6', long, '2026-03-20T00:00:00Z')).toBeCloseTo(0.156875, 12);
  });
});

describe('responseCost without a price', () => {
  it('gives no price for a model the table does not know, never a guess', () => {
    expect(responseCost('claude-unknown-9', MIXED, AT)).toBeNull();
    expect(responseCost('gpt-4o', MIXED, AT)).toBeNull();
    expect(responseCost('haiku', MIXED, AT)).toBeNull();
    expect(responseCost(null, MIXED, AT)).toBeNull();
  });

  it('costs nothing for a <synthetic> line or a response without tokens', () => {
    expect(responseCost('<synthetic>', MIXED, AT)).toBe(0);
    expect(responseCost('claude-unknown-9', usage({}), AT)).toBe(0);
  });

  it('prices a response without a timestamp at the table’s first price', () => {
    expect(responseCost('claude-haiku-4-5-20251001', MIXED, null)).toBeCloseTo(0.007375, 12);
  });
});

describe('the price table', () => {
  it('is the installed @pydantic/genai-prices, pinned exactly', () => {
    const require = createRequire(import.meta.url);
    const entry = require.resolve('@pydantic/genai-prices');
    const manifest = JSON.parse(readFileSync(entry.replace(/dist[/\\]index\.c?js$/, 'package.json'), 'utf8'));
    expect(PRICE_TABLE).toEqual({ name: manifest.name, version: manifest.version, date: snapshot.date });
    const ours = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(ours.devDependencies['@pydantic/genai-prices']).toBe(manifest.version);
  });

  it('holds exactly its Anthropic models (run `pnpm --filter @cctrail/core prices` after a version change)', () => {
    const provider = findProvider({ providerId: 'anthropic' });
    const installed = provider?.models.map(({ id, match, prices }) => ({ id, match, prices }));
    expect(snapshot.models).toEqual(JSON.parse(JSON.stringify(installed)));
  });

  it('is dated by the snapshot script: the day the registry says the version was published', () => {
    const provider = findProvider({ providerId: 'anthropic' });
    const manifest = { name: snapshot.name, version: snapshot.version };
    const published = {
      '0.0.1': '2020-01-01T00:00:00Z',
      [snapshot.version]: `${snapshot.date}T10:11:04.622Z`,
    };
    // The committed file is what the script writes for the installed table, date included.
    expect(JSON.parse(JSON.stringify(priceSnapshot(manifest, provider?.models ?? [], published)))).toEqual(
      snapshot,
    );
    expect(priceSnapshot(manifest, [], { [snapshot.version]: '2031-02-03T23:59:59Z' }).date).toBe(
      '2031-02-03',
    );
    expect(() => priceSnapshot(manifest, [], { '0.0.1': '2020-01-01T00:00:00Z' })).toThrow(
      /no publication time/,
    );
    // prices.ts takes the date from the snapshot, not from a constant of its own.
    const source = readFileSync(new URL('../../src/archive/prices.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/date:\s*['"`]/);
  });

  // Every model of the table, every token kind, both tiers, before and after each price change.
  const usages: Partial<Usage>[] = [
    MIXED,
    { inputTokens: 3, outputTokens: 40 },
    { ...MIXED, cacheReadInputTokens: 250_000 },
    {
      inputTokens: 190_000,
      cacheCreationInputTokens: 20_000,
      cacheCreation1hTokens: 20_000,
      outputTokens: 7,
    },
    { cacheCreationInputTokens: 100_000, cacheCreation5mTokens: 100_000 },
  ];
  const times = [null, '2025-01-01T00:00:00Z', '2026-03-12T23:59:59Z', '2026-03-13T00:00:00Z', AT];
  it.each(snapshot.models.map((m) => m.id))('prices %s as calcPrice does', (id) => {
    for (const more of usages) {
      for (const time of times) {
        const u = usage(more);
        const theirs = calcPrice(
          {
            input_tokens: u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens,
            cache_read_tokens: u.cacheReadInputTokens,
            cache_write_tokens: u.cacheCreationInputTokens,
            cache_write_1h_tokens: u.cacheCreation1hTokens,
            output_tokens: u.outputTokens,
          },
          id,
          { providerId: 'anthropic', timestamp: new Date(time ?? 0) },
        );
        expect(responseCost(id, u, time)).toBeCloseTo(theirs?.total_price ?? Number.NaN, 12);
      }
    }
  });

  it('knows the same model ids as calcPrice, dated ids included', () => {
    for (const id of [
      'claude-3-5-sonnet-20241022',
      'claude-opus-5-20260101',
      'claude-fable-5',
      'claude-2.1',
      'gpt-4o',
    ]) {
      const theirs = calcPrice({ input_tokens: 10 }, id, { providerId: 'anthropic', timestamp: new Date(0) });
      expect(responseCost(id, usage({ inputTokens: 10 }), null)).toBe(
        theirs === null ? null : theirs.total_price,
      );
    }
  });
});
