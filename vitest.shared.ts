import { defineConfig } from 'vitest/config';

/** Every project's vitest settings (each project's vitest.config.ts re-exports this). */
export default defineConfig({
  test: {
    // Unit tests sit beside their file in src/; scenario tests (no file of the same name) in test/<feature>/.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
