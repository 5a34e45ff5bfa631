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
