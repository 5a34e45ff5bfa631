import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageTimes } from '../bench/stage-profile.mjs';

const dir = mkdtempSync(join(tmpdir(), 'cctrail-stage-profile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }), 0);

/** A profile of one thread: each chain of frames (outermost first) sampled once, for 1 ms. */
function profile(name, chains) {
  const nodes = [{ id: 1, callFrame: { functionName: '(root)', url: '' }, children: [] }];
  const samples = [];
  for (const chain of chains) {
    let parent = nodes[0];
    for (const [functionName, url] of chain) {
      const node = { id: nodes.length + 1, callFrame: { functionName, url }, children: [] };
      parent.children.push(node.id);
      nodes.push(node);
      parent = node;
    }
    samples.push(parent.id);
  }
  const timeDeltas = [0, ...samples.map(() => 1000)];
  writeFileSync(join(dir, name), JSON.stringify({ nodes, samples, timeDeltas }));
}

describe('stage-profile', () => {
  it('counts a system call by where it is made, and a function of the same name by its file', () => {
    const writer = ['writePage', 'file:///x/apps/report/dist/build/site-writer.js'];
    profile('CPU.1.0.1.cpuprofile', [
      // The native write of a page.
      [writer, ['write', '']],
      // markdown-it's own `write` (rendering a fragment for the build cache), not a system call.
      [
        ['renderFragments', 'file:///x/apps/report/dist/build/fragments.js'],
        ['render', 'file:///x/node_modules/markdown-it/index.js'],
        ['write', 'file:///x/node_modules/markdown-it/lib/renderer.mjs'],
      ],
      [
        ['collect', ''],
        ['(garbage collector)', ''],
      ],
    ]);
    const { stages, busy } = stageTimes(dir);
    expect(busy).toBe(3000);
    expect(stages.get('write: output folder (pages, assets)')).toBe(1000);
    expect(stages.get('markdown (micromark, mdast, hast)')).toBe(1000);
    expect(stages.get('GC')).toBe(1000);
    expect(stages.get('write: build cache')).toBeUndefined();
  });
});
