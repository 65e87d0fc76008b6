/**
 * The suite's file order (test/support/sequencer.ts): longest first, by vitest's record of a file's last
 * run, else the table of known durations, else a short file's time; the table names only files that exist.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { REPO_ROOT } from '../../../lib/paths';
import { KNOWN_SECONDS, LongestFirstSequencer } from '../../support/sequencer';

/** A specification as the sequencer reads it: its project's name and its file. */
const spec = (project: string, file: string) => ({ project: { name: project }, moduleId: join(REPO_ROOT, file) }) as TestSpecification;

/** A sequencer whose results cache holds `recorded` (project:path -> ms), as vitest's does after a run. */
function sequencerWith(recorded: Record<string, number>): LongestFirstSequencer {
  const ctx = {
    config: { root: REPO_ROOT },
    cache: { getFileTestResults: (key: string) => (key in recorded ? { duration: recorded[key], failed: false } : undefined) },
  };
  return new LongestFirstSequencer(ctx as unknown as Vitest);
}

const order = async (sequencer: LongestFirstSequencer, files: TestSpecification[]) =>
  (await sequencer.sort(files)).map((file) => file.moduleId.slice(REPO_ROOT.length));

describe('the longest-first sequencer', () => {
  it('starts the files the table knows as long first when vitest has no record (a clean clone)', async () => {
    const files = [
      spec('fast', 'test/unit/errors.test.ts'),
      spec('e2e', 'test/api/erasure.test.ts'),
      spec('e2e', 'test/infra/real-synth.test.ts'),
      spec('e2e', 'test/api/vector-tier.test.ts'),
    ];
    expect(await order(sequencerWith({}), files)).toEqual([
      'test/infra/real-synth.test.ts',
      'test/api/erasure.test.ts',
      'test/api/vector-tier.test.ts',
      'test/unit/errors.test.ts',
    ]);
  });

  it("takes vitest's record of a file's last run over the table", async () => {
    const files = [spec('e2e', 'test/infra/real-synth.test.ts'), spec('fast', 'test/unit/errors.test.ts')];
    const sequencer = sequencerWith({ 'e2e:test/infra/real-synth.test.ts': 1_000, 'fast:test/unit/errors.test.ts': 5_000 });
    expect(await order(sequencer, files)).toEqual(['test/unit/errors.test.ts', 'test/infra/real-synth.test.ts']);
  });

  it('lists only test files that exist', () => {
    const missing = Object.keys(KNOWN_SECONDS).filter((file) => !existsSync(join(REPO_ROOT, file)));
    expect(missing).toEqual([]);
  });
});
