// The runner's table of figures sets this checkout against every baseline of the run (`BENCH_BASELINE=a,b`), each
// baseline named by its commit, and says against which of them a figure is worse by more than 5 %.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { builds } from '../bench/builds.mjs';
import { createFigures } from '../bench/figures.mjs';

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

describe('the figures of a run with two baselines', () => {
  test('give each baseline its column and ratio, and name the one a figure is worse than', () => {
    const figures = createFigures();
    figures.add('report', 'after', [30_000, 31_000, 29_000], seconds);
    figures.add('report', 'before 1', [50_000], seconds);
    figures.add('report', 'before 2', [28_000], seconds);
    figures.add('stats', 'after', [2_000], seconds);
    figures.add('stats', 'before 1', [2_000], seconds);
    const table = figures.comparison([
      { name: 'after', commit: 'aaa' },
      { name: 'before 1', commit: '504f386' },
      { name: 'before 2', commit: '8ce2fd6' },
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toBe(
      '| figure (median; lower is better) | before 1 (504f386) | before 2 (8ce2fd6) | after | after / before 1 (504f386) | after / before 2 (8ce2fd6) | |',
    );
    expect(lines[2]).toBe(
      '| report | 50.00 s | 28.00 s | 30.00 s | 0.60 | 1.07 | **7 % worse than before 2 (8ce2fd6)** |',
    );
    expect(lines[3]).toBe('| stats | 2.00 s | — | 2.00 s | 1.00 | — | within 5 % |');
  });

  test('are read from BENCH_BASELINE, one build per folder, and a folder not built is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cctrail-builds-'));
    const fake = (name) => {
      mkdirSync(join(dir, name, 'packages/cli/dist'), { recursive: true });
      writeFileSync(join(dir, name, 'packages/cli/dist/bin.js'), '');
      return join(dir, name);
    };
    try {
      const [here, a, b] = [fake('here'), fake('a'), fake('b')];
      expect(builds(here, a).map((x) => [x.name, x.root])).toEqual([
        ['after', here],
        ['before', a],
      ]);
      expect(builds(here, `${a}, ${b}`).map((x) => x.name)).toEqual(['after', 'before 1', 'before 2']);
      expect(builds(here, '').map((x) => x.name)).toEqual(['after']);
      expect(() => builds(here, `${a},${join(dir, 'c')}`)).toThrow(/build it first/);
      // A package that publishes its bundle is measured by it, unless BENCH_CLI=dist.
      mkdirSync(join(b, 'packages/cli/dist/bundle'));
      writeFileSync(join(b, 'packages/cli/dist/bundle/bin.js'), '');
      writeFileSync(
        join(b, 'packages/cli/package.json'),
        JSON.stringify({ bin: { cctrail: './dist/bundle/bin.js' } }),
      );
      expect(builds(here, b).map((x) => x.cli)).toEqual([
        join(here, 'packages/cli/dist/bin.js'),
        join(b, 'packages/cli/dist/bundle/bin.js'),
      ]);
      process.env.BENCH_CLI = 'dist';
      expect(builds(here, b)[1].cli).toBe(join(b, 'packages/cli/dist/bin.js'));
    } finally {
      delete process.env.BENCH_CLI;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
