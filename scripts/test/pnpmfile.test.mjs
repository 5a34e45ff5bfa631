// `.pnpmfile.cjs`'s `beforePacking`: the manifest the `cctrail` package is published with lists only the
// dependencies its bundle leaves outside (`bundle.external`); other packages' manifests are left as they are.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { hooks } = require('../../.pnpmfile.cjs');

describe('beforePacking', () => {
  it('drops the dependencies the cctrail bundle inlines, and the bundle field', () => {
    const packed = hooks.beforePacking({
      name: 'cctrail',
      dependencies: { '@secretlint/core': '13.0.7', open: '^10.2.0' },
      devDependencies: { esbuild: '^0.27.7' },
      bundle: { external: [] },
    });
    expect(packed).toEqual({ name: 'cctrail', devDependencies: { esbuild: '^0.27.7' } });
  });

  it('keeps the dependencies named external', () => {
    const packed = hooks.beforePacking({
      name: 'cctrail',
      dependencies: { '@secretlint/core': '13.0.7', sharp: '^0.34.0' },
      bundle: { external: ['sharp'] },
    });
    expect(packed).toEqual({ name: 'cctrail', dependencies: { sharp: '^0.34.0' } });
  });

  it('leaves other packages alone', () => {
    const core = { name: '@cctrail/core', dependencies: { a: '1.0.0' }, bundle: { external: [] } };
    expect(hooks.beforePacking(structuredClone(core))).toEqual(core);
  });
});
