import { describe, expect, it } from 'vitest';
import { forEachOrdered } from '../src/pool.js';

describe('forEachOrdered', () => {
  it('emits results in input order with bounded work in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const emitted: number[] = [];
    const items = [5, 1, 4, 2, 3, 0, 6];
    await forEachOrdered(
      items,
      3,
      async (item) => {
        inFlight++;
        most = Math.max(most, inFlight);
        // Later items finish first: order must still hold.
        for (let i = 0; i < item; i++) await Promise.resolve();
        inFlight--;
        return item * 10;
      },
      (result) => {
        emitted.push(result);
      },
    );
    expect(emitted).toEqual(items.map((i) => i * 10));
    expect(most).toBeLessThanOrEqual(3);
  });

  it('rethrows the first failure in order', async () => {
    await expect(
      forEachOrdered(
        [1, 2, 3],
        2,
        async (item) => {
          if (item === 2) throw new Error('boom');
          return item;
        },
        () => {},
      ),
    ).rejects.toThrow('boom');
  });

  it('handles no items', async () => {
    await forEachOrdered(
      [],
      2,
      async () => 1,
      () => {
        throw new Error('not called');
      },
    );
  });
});
