/**
 * A zip imported as POST /files/import does it (uploaded, then the import started), its `file.import` work
 * run once by the worker given (perhaps one whose adapters are observed), over the test runtime's stores or memory.
 * The message the start queued stays queued: run later, it finds the import completed and does nothing.
 */
import type { FileImport } from '../../functions/core/model';
import { uploadFile } from '../../functions/core/use-cases/files';
import { getImport, startImport } from '../../functions/core/use-cases/imports';
import { runWork, type WorkerDeps } from '../../functions/worker/dispatch';
import { makeZip, type Members } from './archives';
import type { MemoryTestDeps } from './memory';
import type { TestDeps } from './stores';

export async function runZipImport(
  deps: TestDeps | MemoryTestDeps,
  worker: WorkerDeps,
  accountId: string,
  members: Members,
  options: { prune?: boolean; memoryId?: string } = {},
): Promise<FileImport> {
  const bytes = await makeZip(members);
  const upload = await uploadFile(deps, accountId, { name: 'docs.zip', contentType: 'application/zip', bytes });
  const { id } = await startImport(deps, accountId, { archiveKey: upload.key, ...options });
  await runWork(worker, { kind: 'file.import', accountId, importId: id }, { attempt: 1, workId: id });
  return getImport(deps, accountId, id);
}
