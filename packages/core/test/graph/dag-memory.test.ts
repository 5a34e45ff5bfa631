import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { type Dag, linkDag } from '../../src/graph/dag.js';
import type { Entry } from '../../src/model/entry.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A chain of `n` entries (0 ─ 1 ─ 2 ─ …), with only what linking reads. */
function chain(n: number): { entries: Entry[]; uuids: Map<string, number> } {
  const entries: Entry[] = [];
  const uuids = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const uuid = `u${i}`;
    entries.push({
      uuid,
      parentUuid: i === 0 ? null : `u${i - 1}`,
      parent: null,
      logicalParentUuid: null,
      source: { file: 's.jsonl', line: i + 1, offset: 0, length: 0 },
    } as Entry);
    uuids.set(uuid, i);
  }
  return { entries, uuids };
}

/** Heap in use after a full collection. */
function heap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

// #31: while a session of a million lines is analysed, its DAG lives beside its entries. A list of children per
// entry cost about 180 bytes each (an empty array grows to 17 slots on its first push); leaves now share one
// empty list and a parent's list has room for its children only: under 100 bytes per entry, parents included.
it('holds at most 100 bytes per entry of a chain in its DAG, beside the entries', () => {
  const n = 40_000;
  const { entries, uuids } = chain(n);
  let dag: Dag | null = linkDag(entries, new Int32Array(n), [], [], uuids);
  expect(dag.children[0]).toEqual([1]);
  expect(dag.children[n - 1]).toEqual([]);
  const alive = heap();
  dag = null;
  const per = (alive - heap()) / n;
  expect(per).toBeLessThan(100);
});

it('gives every leaf an empty list that cannot be changed', () => {
  const { entries, uuids } = chain(3);
  const dag = linkDag(entries, new Int32Array(3), [], [], uuids);
  expect(() => (dag.children[2] as number[]).push(9)).toThrow(TypeError);
  expect(dag.children.map((c) => [...c])).toEqual([[1], [2], []]);
});
