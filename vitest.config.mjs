// The tests of the repository's own scripts (`pnpm test:scripts`, part of `pnpm test`); each package and app has
// its own vitest.config.ts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['scripts/**/*.test.mjs'],
    exclude: ['**/node_modules/**', 'scripts/bench/**', 'scripts/pack/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
