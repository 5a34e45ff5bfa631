// The tests of the packed packages installed with plain npm (`pnpm test:pack`, run by `.ci/run` after the build):
// apart from `pnpm test`, which runs before anything is packed.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['scripts/pack/*.test.mjs'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
