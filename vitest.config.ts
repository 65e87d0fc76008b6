import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/property-seed.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
    coverage: {
      // measured in the test workers (`vitest run --coverage`, as `npm test` runs it): code the tests import.
      provider: 'v8',
      include: ['functions/**/*.{ts,mts,mjs}', 'lib/**/*.ts'],
      exclude: ['**/*.d.ts'],
      reporter: ['text-summary', 'json-summary'],
    },
  },
});
