/**
 * An import's batches are bounded by bytes as well as by members: a tar's members are read whole by the
 * walk, so a batch of them is flushed once their bytes pass the settings' batchBytes (64 MiB by default),
 * not only at 200 members. The real import runs against the test runtime's stores; its progress writes
 * (one per batch) are observed on their way to the real store.
 */
import { afterAll, expect, it } from 'vitest';
import type { ImportStore } from '../../functions/core/files/ports';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { makeTar } from '../support/archives';
import { runArchiveImport } from '../support/imports';
import { testConfig, testDeps } from '../support/stores';

const deps = testDeps();
afterAll(() => deps.documentClient.destroy());

it('flushes a batch once its members pass the byte budget, and defaults that budget to 64 MiB', async () => {
  const { account } = await createAccount(deps, `import-batches-${process.pid}-${Date.now()}`);
  const positions: number[] = [];
  const real = deps.worker.imports;
  const imports: typeof real = Object.assign(Object.create(real) as typeof real, {
    update: (accountId: string, id: string, changes: Parameters<ImportStore['update']>[2]) => {
      if (changes.position !== undefined) positions.push(changes.position);
      return real.update(accountId, id, changes);
    },
  });
  const member = (n: number) => `Member ${n}. `.repeat(40_000); // 400,000 bytes each
  const tar = await makeTar(Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`m${n}.txt`, member(n)])));
  const config = { ...deps.config, imports: { ...deps.config.imports, batchBytes: 1 << 20 } }; // 1 MiB
  const done = await runArchiveImport(deps, { ...deps.worker, imports, config }, account.id, { name: 'big.tar', bytes: tar });
  expect(done).toMatchObject({ state: 'completed', total: 5, created: 5, failed: 0 });
  // three members pass 1 MiB: a batch of three, then the two left
  expect(positions).toEqual([3, 5]);
  expect(testConfig().imports.batchBytes).toBe(64 * 1024 * 1024);
});
