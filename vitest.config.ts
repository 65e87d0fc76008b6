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
      // Today's figure over the whole suite (11-24, `vitest run --coverage` at c3d6f46: 85.93% statements and
      // lines, 81.84% branches, 87.59% functions), rounded down about a point for noise. Raise them when the
      // figure rises; never lower them to let a change in.
      thresholds: { statements: 85, lines: 85, branches: 80, functions: 86 },
    },
  },
});
