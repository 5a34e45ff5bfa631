import { describe, expect, it } from 'vitest';
import { contextTokens, emptyUsage, totalTokens } from '../../src/graph/usage.js';

const usage = (input: number, output: number, creation: number, read: number) => ({
  ...emptyUsage(),
  inputTokens: input,
  outputTokens: output,
  cacheCreationInputTokens: creation,
  cacheReadInputTokens: read,
});

describe('token totals', () => {
  it('adds the four counts for the total, and leaves the output out of the context', () => {
    expect(totalTokens(usage(1, 20, 300, 4000))).toBe(4321);
    expect(contextTokens(usage(1, 20, 300, 4000))).toBe(4301);
  });
  it('counts nothing for a missing usage', () => {
    expect(totalTokens(null)).toBe(0);
    expect(totalTokens(undefined)).toBe(0);
    expect(contextTokens(null)).toBe(0);
  });
});
