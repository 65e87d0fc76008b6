import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The fast tier: unit tests, the store and queue contracts on memory, and the use cases and worker pipeline
 * over in-memory stores (test/core). No global setup: no local runtime, no dynalite or s3rver. Run alone
 * with `npm run test:fast` (the edit-test loop). Its files share their worker threads' module graph
 * (threads pool, `isolate: false` below): the engine, the use cases and their libraries are imported once
 * per thread, not once per file.
 */
const FAST = [
  'test/unit/**/*.test.ts',
  'test/core/**/*.test.ts',
  'test/contract/stores/memory.test.ts',
  'test/contract/work-queue.test.ts',
  'test/contract/local-queue.test.ts',
  'test/contract/answers/**/*.test.ts',
  'test/contract/graph-extraction/**/*.test.ts',
  // the vector tier against the S3 Vectors double (an HTTP server of its own, no local runtime)
  'test/contract/vector-tier/**/*.test.ts',
];

/**
 * The stack's tests: test/infra but real-synth.test.ts (the real `npx cdk synth`, an end-to-end test). No
 * local runtime either. They too share their threads' modules, so aws-cdk-lib is imported and the plain app
 * synthesized (test/infra/support/synth.ts) once per thread instead of once per file.
 */
const STACK_BUT_REAL_SYNTH = 'test/infra/!(real-synth).test.ts';

/**
 * End-to-end files that start in a fresh process, after the others (project e2e-alone): the soak, whose
 * runtime must answer within a second while it is loaded, runs with nothing left running beside it by
 * files before it. It starts its own runtime, so it needs no global setup.
 */
const E2E_ALONE = ['test/soak/hostile-files.test.ts'];

export default defineConfig({
  resolve: {
    // Vite's resolver reads chrono-node's `./*/*` export pattern for `chrono-node/en` (the English locale's
    // module, which the engine imports) and misses the file; Node, tsx and esbuild take `./*`. Here it is
    // the file Node resolves, so the tests load what the service does.
    alias: [{ find: /^chrono-node\/en$/, replacement: fileURLToPath(import.meta.resolve('chrono-node/en')) }],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every project's files run one after another in their worker, on the modules the worker already imported:
    // the fast and stack projects' two threads, the end-to-end tier's two child processes (vitest's pools read
    // these options here, at the root, not per project). So what a file changes in the process (the environment,
    // a spy, a module's state) it puts back (docs/testing.md, "Two tiers"; test/support/process-env.ts).
    poolOptions: { threads: { isolate: false }, forks: { isolate: false } },
    // two test files at once (vitest's own default on 2 cores is one): most end-to-end tests wait on the
    // runtime's worker, so a second file fills the wait; `npm test` took 8.5 min this way against 11.3 min
    maxWorkers: 2,
    minWorkers: 1,
    // vitest's own file order: starting the longest files first (a custom sequencer) ran the CPU-heavy
    // ones together (cdk synth, the browser, the fuzz) and made the suite 588 s against 468 s (docs/testing.md)
    reporters: ['default'],
    // `npm test` runs every project (one coverage over all); `vitest run --project fast` the fast tier alone
    projects: [
      // the threads first, then the end-to-end processes (sequence.groupOrder): two workers at a time, never four,
      // as the timing tests of both tiers (the soak's one-second answers, a 504 before the function's time) expect
      { extends: true, test: { name: 'fast', include: FAST, pool: 'threads', sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'stack', include: [STACK_BUT_REAL_SYNTH], pool: 'threads', sequence: { groupOrder: 0 } } },
      {
        extends: true,
        // the end-to-end tier: everything else, over one local runtime (real dynalite and s3rver) the global setup starts
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...FAST, STACK_BUT_REAL_SYNTH, ...E2E_ALONE],
          globalSetup: ['test/support/global-setup.ts'],
          // each file starts with the shared Powertools logger out of any earlier file's Lambda invocation
          setupFiles: ['test/support/e2e-file-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      // vitest starts new processes for the next group (groupOrder), so these begin with nothing imported or running
      { extends: true, test: { name: 'e2e-alone', include: E2E_ALONE, sequence: { groupOrder: 2 } } },
    ],
    coverage: {
      // measured in the test workers (`vitest run --coverage`, as `npm test` runs it): code the tests import.
      provider: 'v8',
      include: ['functions/**/*.{ts,mts,mjs}', 'lib/**/*.ts'],
      exclude: ['**/*.d.ts'],
      reporter: ['text-summary', 'json-summary'],
      // Today's figure over the whole suite (11-28, `CI=true bash .ci/run` on a clean clone of a9373d9:
      // 90.52% statements and lines, 85.61% branches, 92.58% functions), rounded down about a point for noise.
      // Raise them when the figure rises; never lower them to let a change in.
      thresholds: { statements: 89, lines: 89, branches: 84, functions: 91 },
    },
  },
});
