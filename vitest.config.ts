import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    // Each worker has its own PGlite and PostgreSQL databases (src/server/test/harness.ts).
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    globalSetup: ['tests/global-setup.ts'],
  },
});
