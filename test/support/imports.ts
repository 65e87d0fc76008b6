/**
 * A zip imported as POST /files/import does it (uploaded, then the import started), its `file.import` work
 * run once by the worker given (perhaps one whose adapters are observed), over the test runtime's stores or memory.
 * The message the start queued stays queued: run later, it finds the import completed and does nothing.
 */
import type { FileImport } from '../../functions/core/files/bulk-import';
import { uploadFile } from '../../functions/core/use-cases/files';
import { getImport, startImport } from '../../functions/core/use-cases/imports';
import { runWork, type WorkerDeps } from '../../functions/worker/dispatch';
import { makeZip, type Members } from './archives';
import type { MemoryTestDeps } from './memory';
import type { TestDeps } from './stores';

/** The bucket of the local S3 store that S3 imports in the tests read, and one listed but never made. */
export const TEST_IMPORT_BUCKET = 'kmem-test-imports';
export const TEST_MISSING_BUCKET = 'kmem-test-missing';

export async function runZipImport(
  deps: TestDeps | MemoryTestDeps,
  worker: WorkerDeps,
  accountId: string,
  members: Members,
  options: { prune?: boolean; memoryId?: string } = {},
): Promise<FileImport> {
  return runArchiveImport(deps, worker, accountId, { name: 'docs.zip', bytes: await makeZip(members) }, options);
}

/** An archive (zip, tar or tar.gz by its name) imported the same way. */
export async function runArchiveImport(
  deps: TestDeps | MemoryTestDeps,
  worker: WorkerDeps,
  accountId: string,
  { name, bytes }: { name: string; bytes: Uint8Array },
  options: { prune?: boolean; memoryId?: string } = {},
): Promise<FileImport> {
  const upload = await uploadFile(deps, accountId, { name, contentType: 'application/octet-stream', bytes });
  const { id } = await startImport(deps, accountId, { archiveKey: upload.key, ...options });
  await runWork(worker, { kind: 'file.import', accountId, importId: id }, { attempt: 1, workId: id });
  return getImport(deps, accountId, id);
}
