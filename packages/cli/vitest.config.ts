import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Hooks remove large temporary folders: on a loaded 2-core machine that takes longer than the default 10 s.
    hookTimeout: 120_000,
  },
});
