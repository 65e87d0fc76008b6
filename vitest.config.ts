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
      // Today's figure, rounded down about a point for noise: 69.27% statements and lines, 80.32% branches,
      // 86.59% functions (11-24, measured by the unit, contract, extract, web and function tests, a lower
      // bound of the whole suite's). Raise them when the figure rises; never lower them to let a change in.
      thresholds: { statements: 68, lines: 68, branches: 79, functions: 85 },
    },
  },
});
