// Heap snapshots of a running process for the live benchmark (#29): `node --heapsnapshot-signal=SIGUSR2` writes
// one (after a full GC) when sent the signal; this reads it back as totals by constructor, to compare the heap at
// the start, middle and end of a run and name what grew.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Asks a process started with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>` for a snapshot and waits
 * for it: `ready` must resolve only once the process answers again (its main thread is blocked while it writes).
 *
 * @returns The snapshot's totals by constructor (see `heapTotals`); the file is removed.
 */
export async function takeHeapSnapshot(pid, dir, ready) {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  // The signal is handled on the process's event loop: it may answer once before it starts writing. A request
  // that waited the whole snapshot may be dropped by the server's timeouts: it is asked again.
  for (;;) {
    await ready().catch(() => undefined);
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!file) continue;
    let snapshot;
    try {
      snapshot = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch {
      continue;
    }
    rmSync(join(dir, file));
    return heapTotals(snapshot);
  }
}

/** A snapshot's size (bytes) and its objects by `type:name`: count and self size. */
export function heapTotals(snapshot) {
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const typeNames = types[typeAt];
  const { nodes, strings } = snapshot;
  const groups = new Map();
  let bytes = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = typeNames[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    bytes += size;
    // Strings and code are grouped by type only: their names are their text.
    const name = type === 'object' || type === 'closure' ? strings[nodes[i + nameAt]] : '';
    const key = `${type}:${name}`;
    const group = groups.get(key) ?? { count: 0, size: 0 };
    group.count++;
    group.size += size;
    groups.set(key, group);
  }
  return { bytes, groups };
}

/** The groups that grew most between two snapshots' totals, by size. */
export function heapGrowth(before, after, top = 12) {
  const rows = [];
  for (const [key, a] of after.groups) {
    const b = before.groups.get(key) ?? { count: 0, size: 0 };
    rows.push({ key, count: a.count - b.count, size: a.size - b.size });
  }
  return rows.sort((x, y) => y.size - x.size).slice(0, top);
}
