/**
 * Runs `work` over `items` with at most `limit` items in flight and hands the results to `emit` in input
 * order. At most `limit` results wait for `emit`, so memory stays bounded whatever the number of items.
 *
 * @param items The inputs, in the order results must be emitted.
 * @param limit How many items may be processed at once (≥ 1).
 * @param work Processes one item; it should not reject (a rejection stops the run and is rethrown).
 * @param emit Receives each result in input order.
 */
export async function forEachOrdered<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  emit: (result: R, item: T, index: number) => void | Promise<void>,
): Promise<void> {
  const window: { item: T; index: number; result: Promise<Settled<R>> }[] = [];
  const flush = async () => {
    const next = window.shift()!;
    const settled = await next.result;
    if (!settled.ok) throw settled.error;
    await emit(settled.value, next.item, next.index);
  };
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    window.push({ item, index, result: settle(work(item, index)) });
    if (window.length >= Math.max(1, limit)) await flush();
  }
  while (window.length > 0) await flush();
}

type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** Turns a promise into a value that never rejects, so a waiting window has no unhandled rejections. */
function settle<R>(promise: Promise<R>): Promise<Settled<R>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/**
 * Runs `work` over `items` with at most `limit` items in flight, the heaviest first, and hands the results to
 * `emit` in input order. Starting with the longest jobs lets parallel workers finish together: the last jobs
 * handed out are the shortest, so no worker is left with a long one while the others wait. Results that come in
 * before their turn wait for `emit`: use it when every result is small or kept anyway.
 *
 * @param items The inputs, in the order results must be emitted.
 * @param weight An item's expected cost (e.g. its size in bytes); ties keep input order.
 * @param limit How many items may be processed at once (≥ 1).
 * @param work Processes one item; a rejection stops handing out items and is rethrown in input order.
 * @param emit Receives each result in input order.
 */
export async function forEachHeaviestFirst<T, R>(
  items: readonly T[],
  weight: (item: T, index: number) => number,
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  emit: (result: R, item: T, index: number) => void | Promise<void>,
): Promise<void> {
  const weights = items.map(weight);
  const order = items.map((_, index) => index).sort((a, b) => weights[b]! - weights[a]! || a - b);
  const done: ((settled: Settled<R>) => void)[] = [];
  const results = items.map(() => new Promise<Settled<R>>((resolve) => done.push(resolve)));
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < order.length) {
      const index = order[next++]!;
      const settled = await settle(work(items[index]!, index));
      done[index]!(settled);
      if (!settled.ok) {
        // Stop: the items not started yet fail with the same error (the first in input order is rethrown).
        for (const rest of order.slice(next)) done[rest]!(settled);
        next = order.length;
      }
    }
  };
  void Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  for (let index = 0; index < items.length; index++) {
    const settled = await results[index]!;
    if (!settled.ok) throw settled.error;
    await emit(settled.value, items[index]!, index);
  }
}
