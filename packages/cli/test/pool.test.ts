import { describe, expect, it } from 'vitest';
import { forEachHeaviestFirst, forEachOrdered } from '../src/runtime/pool.js';

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

describe('forEachHeaviestFirst', () => {
  it('starts the heaviest items first and emits results in input order', async () => {
    const started: string[] = [];
    const emitted: string[] = [];
    let inFlight = 0;
    let most = 0;
    const items = ['b', 'dddd', 'a', 'cc', 'eee', 'ff'];
    await forEachHeaviestFirst(
      items,
      (item) => item.length,
      2,
      async (item) => {
        started.push(item);
        inFlight++;
        most = Math.max(most, inFlight);
        for (let i = 0; i < 10 - item.length; i++) await Promise.resolve();
        inFlight--;
        return item.toUpperCase();
      },
      (result, item, index) => {
        expect(items[index]).toBe(item);
        emitted.push(result);
      },
    );
    // Ties (cc, ff) keep input order.
    expect(started).toEqual(['dddd', 'eee', 'cc', 'ff', 'b', 'a']);
    expect(emitted).toEqual(items.map((item) => item.toUpperCase()));
    expect(most).toBe(2);
  });

  it('stops handing out items after a failure and rethrows it', async () => {
    const started: number[] = [];
    const emitted: number[] = [];
    await expect(
      forEachHeaviestFirst(
        [1, 5, 2, 4, 3],
        (item) => item,
        1,
        async (item) => {
          started.push(item);
          if (item === 4) throw new Error('boom');
          return item;
        },
        (result) => {
          emitted.push(result);
        },
      ),
    ).rejects.toThrow('boom');
    expect(started).toEqual([5, 4]);
    // Item 1 never ran: it fails with the same error, before anything is emitted.
    expect(emitted).toEqual([]);
  });

  it('handles no items', async () => {
    await forEachHeaviestFirst(
      [],
      () => 1,
      2,
      async () => 1,
      () => {
        throw new Error('not called');
      },
    );
  });
});
