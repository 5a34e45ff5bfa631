import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { followInputs } from '../../src/serve/follow-inputs.js';

const root = mkdtempSync(join(tmpdir(), 'cctrail-follow-'));
afterAll(() => rmSync(root, { recursive: true, force: true }), 0);
mkdirSync(join(root, 'project'));
writeFileSync(join(root, 'project', 's1.jsonl'), '{}\n');

/** A queue of the rebuilds asked for: each resolves the next waiter. */
function rebuilds() {
  const seen: string[][] = [];
  let wake: (() => void) | null = null;
  return {
    seen,
    rebuild: async (changed: readonly string[]) => {
      seen.push(changed.map((p) => p.slice(root.length + 1)));
      wake?.();
    },
    next: () =>
      new Promise<void>((resolve) => {
        wake = resolve;
      }),
  };
}

describe('followInputs', () => {
  it('rebuilds after appends, new sessions, new projects and agent files, never for other files', async () => {
    const queue = rebuilds();
    const errors: unknown[] = [];
    const follower = await followInputs({
      paths: [root],
      rebuild: queue.rebuild,
      onError: (e) => errors.push(e),
      debounceMs: 50,
    });
    let next = queue.next();
    appendFileSync(join(root, 'project', 's1.jsonl'), '{"a":1}\n');
    await next;
    next = queue.next();
    writeFileSync(join(root, 'project', 'notes.txt'), 'not a transcript');
    mkdirSync(join(root, 'other', 's2', 'subagents'), { recursive: true });
    writeFileSync(join(root, 'other', 's2.jsonl'), '{}\n');
    writeFileSync(join(root, 'other', 's2', 'subagents', 'agent-a1.jsonl'), '{}\n');
    writeFileSync(join(root, 'other', 's2', 'subagents', 'agent-a1.meta.json'), '{}');
    // Further rebuilds until the agent file is seen (the watcher may report the new folder's files in steps).
    while (!queue.seen.flat().includes('other/s2/subagents/agent-a1.jsonl')) {
      await next;
      next = queue.next();
    }
    await follower.idle();
    await follower.close();
    const all = queue.seen.flat();
    expect(queue.seen[0]).toEqual(['project/s1.jsonl']);
    expect(all).toContain('other/s2.jsonl');
    expect(all).toContain('other/s2/subagents/agent-a1.meta.json');
    expect(all).not.toContain('project/notes.txt');
    expect(errors).toEqual([]);
  });

  it('runs one rebuild at a time and gathers the changes made during one', async () => {
    let running = 0;
    let most = 0;
    let release: (() => void) | null = null;
    const seen: string[] = [];
    let started: (() => void) | null = null;
    const follower = await followInputs({
      paths: [join(root, 'project')],
      rebuild: async (changed) => {
        running++;
        most = Math.max(most, running);
        seen.push(...changed.map((p) => p.slice(root.length + 1)));
        started?.();
        // The first rebuild lasts until the test lets it go, while more files change.
        if (seen.length === 1) await new Promise<void>((resolve) => (release = resolve));
        running--;
      },
      onError: () => {},
      debounceMs: 20,
    });
    let next = new Promise<void>((resolve) => (started = resolve));
    appendFileSync(join(root, 'project', 's1.jsonl'), '{"b":1}\n');
    await next;
    writeFileSync(join(root, 'project', 's3.jsonl'), '{}\n');
    writeFileSync(join(root, 'project', 's4.jsonl'), '{}\n');
    const done = () => seen.includes('project/s3.jsonl') && seen.includes('project/s4.jsonl');
    while (!done()) {
      next = new Promise<void>((resolve) => (started = resolve));
      (release as (() => void) | null)?.();
      // Wakes when the watcher has seen a change and the rebuild after the first has started.
      await next;
    }
    await follower.close();
    expect(most).toBe(1);
    expect(seen[0]).toBe('project/s1.jsonl');
  });

  it('rebuilds a file that keeps changing faster than the debounce, once it has waited long enough', async () => {
    let rebuilt: (() => void) | null = null;
    const done = new Promise<void>((resolve) => (rebuilt = resolve));
    const follower = await followInputs({
      paths: [join(root, 'project')],
      rebuild: async () => rebuilt?.(),
      onError: () => {},
      debounceMs: 50,
      maxWaitMs: 100,
    });
    // Asked again every 5 ms, each time before the debounce is over, up to 2,000 times (10 s or more).
    let asked = 0;
    let askedWhenRebuilt = 0;
    await new Promise<void>((resolve) => {
      const ask = setInterval(() => {
        follower.queue([join(root, 'project', 'busy.jsonl')]);
        if (++asked < 2000) return;
        clearInterval(ask);
        resolve();
      }, 5);
      done.then(() => {
        askedWhenRebuilt = asked;
        clearInterval(ask);
        resolve();
      });
    });
    await done;
    await follower.close();
    expect(askedWhenRebuilt).toBeGreaterThan(0);
    expect(askedWhenRebuilt).toBeLessThan(2000);
  });

  it('hands changes to absorb while a rebuild runs, and rebuilds only what it hands back', async () => {
    const absorbed: string[] = [];
    const rebuilt: string[] = [];
    let release: (() => void) | null = null;
    let wake: (() => void) | null = null;
    const follower = await followInputs({
      paths: [join(root, 'project')],
      absorb: async (changed) => {
        absorbed.push(...changed.map((p) => p.slice(root.length + 1)));
        wake?.();
        return changed.filter((p) => !p.endsWith('s1.jsonl'));
      },
      rebuild: async (changed) => {
        rebuilt.push(...changed.map((p) => p.slice(root.length + 1)));
        wake?.();
        // The first rebuild lasts until the test lets it go.
        if (rebuilt.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      onError: () => {},
      debounceMs: 20,
      absorbMs: 10,
    });
    const next = () => new Promise<void>((resolve) => (wake = resolve));
    let woken = next();
    follower.queue([join(root, 'project', 'queued.jsonl')]);
    await woken;
    // A rebuild is under way: appends are still absorbed.
    woken = next();
    appendFileSync(join(root, 'project', 's1.jsonl'), '{"c":1}\n');
    await woken;
    expect(absorbed).toEqual(['project/s1.jsonl']);
    writeFileSync(join(root, 'project', 's5.jsonl'), '{}\n');
    while (!rebuilt.includes('project/s5.jsonl')) {
      woken = next();
      (release as (() => void) | null)?.();
      await woken;
    }
    await follower.close();
    expect(absorbed).toContain('project/s5.jsonl');
    expect(rebuilt).not.toContain('project/s1.jsonl');
    expect(rebuilt[0]).toBe('project/queued.jsonl');
  });

  it('takes changes the watcher did not report, through absorb like any other', async () => {
    const absorbed: string[] = [];
    let wake: (() => void) | null = null;
    const follower = await followInputs({
      paths: [join(root, 'project')],
      absorb: async (changed) => {
        absorbed.push(...changed.map((p) => p.slice(root.length + 1)));
        wake?.();
        return [];
      },
      rebuild: async () => {},
      onError: () => {},
      absorbMs: 5,
    });
    const woken = new Promise<void>((resolve) => (wake = resolve));
    follower.changed([join(root, 'project', 's1.jsonl'), join(root, 'project', 'notes.txt')]);
    await woken;
    await follower.close();
    expect(absorbed).toEqual(['project/s1.jsonl']);
  });
});
