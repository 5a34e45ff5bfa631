import { describe, expect, it } from 'vitest';
import { shared } from '../src/normalize/shared-strings.js';

/** A string equal to `text` that is not the same string (as `JSON.parse` makes one per line). */
const copy = (text: string) => JSON.parse(JSON.stringify(text)) as string;

describe('shared', () => {
  it('gives each value an equal string, whether or not the last value of its length was equal', () => {
    const values = ['main', 'dev1', 'main', 'v2.1', 'dev1', 'dev1', 'main'].map(copy);
    expect(values.map((value) => shared(value))).toEqual([
      'main',
      'dev1',
      'main',
      'v2.1',
      'dev1',
      'dev1',
      'main',
    ]);
  });

  it('leaves other values as they are', () => {
    const long = 'x'.repeat(300);
    expect(shared(long)).toBe(long);
    expect(shared(42)).toBe(42);
    expect(shared(null)).toBe(null);
  });
});
