import { defineConfig } from 'vitest/config';

/** Every project's vitest settings (each project's vitest.config.ts re-exports this). */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
