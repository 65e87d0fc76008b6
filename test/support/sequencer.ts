/**
 * The order test files start in (vitest.config.ts's `sequence.sequencer`): longest first, so that on two
 * workers the long end-to-end files do not start last and leave one worker idle while the other finishes
 * them (longest-processing-time scheduling). A file's duration is vitest's own record of its last run
 * when there is one (the results cache in node_modules/.vite), else the table below, else SHORT_FILE_MS.
 * Vitest's default falls back to file size when it has no record, as in a clean clone (CI): there the
 * cdk synth, the erasure and the conversation traffic files started among the last.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What an unlisted file is taken to last (most files take one to three seconds). */
const SHORT_FILE_MS = 2_000;

/**
 * Seconds of the files longer than about 4 s, from vitest's results cache after `npm test` on main (11-27,
 * a loaded 2-core machine, so about twice the quiet figures): only their order matters. Keep the longest
 * files here when adding one; a file missing from the table only starts later than it should.
 */
export const KNOWN_SECONDS: Readonly<Record<string, number>> = {
  'test/infra/real-synth.test.ts': 160,
  'test/api/erasure.test.ts': 67,
  'test/soak/hostile-files.test.ts': 56,
  'test/api/erasure-accounts.test.ts': 56,
  'test/api/grounded-answer.test.ts': 47,
  'test/service/api-keys.test.ts': 46,
  'test/api/reranker.test.ts': 42,
  'test/api/file-kinds.test.ts': 40,
  'test/api/conversation-traffic.test.ts': 38,
  'test/fuzz/openapi-fuzz.test.ts': 36,
  'test/api/session-summary-model.test.ts': 35,
  'test/console/console.test.ts': 33,
  'test/service/response-size.test.ts': 29,
  'test/service/import-sources-cli.test.ts': 26,
  'test/functions/extraction-sandbox.test.ts': 26,
  'test/functions/work-failures.test.ts': 23,
  'test/soak/lambda-extraction.test.ts': 22,
  'test/api/entities.test.ts': 21,
  'test/functions/large-ingestion.test.ts': 20,
  'test/api/responsive.test.ts': 20,
  'test/infra/answers.test.ts': 19,
  'test/api/erasure-sessions.test.ts': 18,
  'test/functions/worker.test.ts': 17,
  'test/infra/nag.test.ts': 17,
  'test/infra/service-hardening.test.ts': 17,
  'test/mcp/mcp.test.ts': 17,
  'test/api/restart.test.ts': 16,
  'test/api/retrieval.test.ts': 15,
  'test/extract/hostile.test.ts': 15,
  'test/unit/retrieval/index-format.test.ts': 15,
  'test/api/temporal.test.ts': 14,
  'test/functions/import-etags.test.ts': 14,
  'test/extract/audio.test.ts': 13,
  'test/api/session-summaries.test.ts': 13,
  'test/infra/observability.test.ts': 13,
  'test/api/export-restore.test.ts': 13,
  'test/extract/image.test.ts': 12,
  'test/functions/message-search.test.ts': 12,
  'test/api/sources.test.ts': 11,
  'test/infra/vector-tier.test.ts': 11,
  'test/infra/reranker.test.ts': 10,
  'test/contract/local-queue.test.ts': 10,
  'test/mcp/mcp-http-guards.test.ts': 10,
  'test/api/resync.test.ts': 10,
  'test/service/rate-limit.test.ts': 10,
  'test/infra/ingest.test.ts': 9,
  'test/api/conversation-order.test.ts': 9,
  'test/api/vector-tier.test.ts': 9,
  'test/extract/video.test.ts': 9,
  'test/unit/retrieval/merge-index.test.ts': 8,
  'test/api/time-in-queries.test.ts': 8,
  'test/infra/api.test.ts': 8,
  'test/api/files.test.ts': 8,
  'test/service/private-runtime.test.ts': 8,
  'test/unit/lexical/segment-format.test.ts': 7,
  'test/infra/console.test.ts': 7,
  'test/api/pagination.test.ts': 6,
  'test/functions/import-sources.test.ts': 6,
  'test/api/imports.test.ts': 6,
  'test/functions/retrieval-sources.test.ts': 6,
  'test/api/conversations.test.ts': 6,
  'test/functions/grounded-answer.test.ts': 6,
  'test/api/memories.test.ts': 5,
  'test/unit/retrieval/compose-index.test.ts': 5,
  'test/infra/data.test.ts': 5,
  'test/functions/import-budget.test.ts': 5,
  'test/infra/config.test.ts': 5,
  'test/infra/functions.test.ts': 5,
};

/** The table's figure for a file (path relative to the repository root), in milliseconds, if it has one. */
function knownDurationMs(file: string): number | undefined {
  const seconds = KNOWN_SECONDS[file.replaceAll('\\', '/')];
  return seconds === undefined ? undefined : seconds * 1000;
}

/** Longest first: vitest's record of the file's last run, else the table, else a short file's time. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = new Map<TestSpecification, number>();
    for (const file of files) {
      const path = relative(root, file.moduleId);
      const recorded = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`)?.duration;
      expected.set(file, recorded ?? knownDurationMs(path) ?? SHORT_FILE_MS);
    }
    return [...files].sort((a, b) => (expected.get(b) ?? 0) - (expected.get(a) ?? 0));
  }
}
