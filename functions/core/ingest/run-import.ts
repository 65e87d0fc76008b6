/**
 * The `file.import` work: a bulk import, server-side. The source is surveyed first (an archive passes
 * every limit before anything is kept), then its members are read, hashed, stored and extracted in
 * batches with bounded concurrency: a new member becomes a ready (or failed) file written with the batch in
 * batched table writes, a changed one replaces its file's content (and refreshes the memories that hold
 * it), an unchanged one costs nothing. Progress is saved after every batch, so a redelivered import goes
 * on where it stopped. Then `prune` deletes the files whose member is gone, and with a memory the files
 * are added to it and its ingestion started.
 */
import { mapConcurrently } from '../concurrency';
import { type FileRecord, fileSource } from '../model';
import { type FileImport, type ImportError, importSourcePrefix } from '../files/bulk-import';
import { objectKeys } from '../object-keys';
import type { ImportStore } from '../files/ports';
import { type FileDeps, removeFileData, removeImportedFiles } from '../files/file-records';
import { fileIdsByMemory, markLinksChanged, type MemoryFileDeps } from '../files/memory-links';
import { type EmitDeps, emitWebhookEvent } from '../webhooks/outbox';
import { type ImportSourceRules, importSourceRefusal } from '../files/import-sources';
import type { WorkMessage } from '../work';
import { importMember, type Outcome, recordedEtag } from './import-member';
import { accountsReadBetweenCharges, type ExtractionChargeDeps } from './extraction-charge';
import { type ContentExtractor, type ImportMemberRef, type ImportReader, ImportRefusedError } from './ports';
import { stageTexts } from './staged-texts';

export interface ImportDeps extends FileDeps, MemoryFileDeps, EmitDeps, ExtractionChargeDeps {
  imports: ImportStore;
  importReader: ImportReader;
  extractor: ContentExtractor;
  config: FileDeps['config'] &
    ExtractionChargeDeps['config'] & { imports: ImportSourceRules & { concurrency: number; batchBytes: number } };
}

/** Members handled between two progress writes (fewer when their bytes pass the settings' batchBytes). */
const BATCH_MEMBERS = 200;
/** Problems an import lists (it counts them all in `failed`). */
const IMPORT_ERRORS_LISTED = 100;

export async function runImport(deps: ImportDeps, message: Extract<WorkMessage, { kind: 'file.import' }>): Promise<void> {
  const job = await deps.imports.get(message.accountId, message.importId);
  if (!job || job.state !== 'running') return;
  try {
    await importAll(deps, job);
  } catch (error) {
    if (!(error instanceof ImportRefusedError)) throw error;
    const latest = (await deps.imports.get(job.accountId, job.id)) ?? job;
    const refusal = { sourceKey: importSourcePrefix(job.source), error: error.message };
    await finish(deps, { ...latest, errors: [refusal, ...latest.errors].slice(0, IMPORT_ERRORS_LISTED) }, 'failed');
  }
}

/** Marks an import failed after its last try (the worker's give-up). */
export async function failImport(deps: ImportDeps, accountId: string, importId: string, reason: string): Promise<void> {
  const job = await deps.imports.get(accountId, importId);
  if (!job || job.state !== 'running') return;
  await finish(
    deps,
    { ...job, errors: [{ sourceKey: importSourcePrefix(job.source), error: reason }, ...job.errors].slice(0, IMPORT_ERRORS_LISTED) },
    'failed',
  );
}

async function importAll(deps: ImportDeps, job: FileImport): Promise<void> {
  if (job.source.kind === 's3') {
    // checked again here: the account's sources may have changed since the request, and the API is not the only way in
    const refusal = importSourceRefusal(deps.config.imports, await deps.accounts.get(job.accountId), job.source);
    if (refusal) throw new ImportRefusedError(refusal.problem);
  }
  const prefix = importSourcePrefix(job.source);
  const existing = new Map((await deps.files.listBySourcePrefix(job.accountId, prefix)).map((f) => [f.sourceKey ?? '', f]));
  const paths = await deps.importReader.survey(job.source, unchangedMembers(job, existing));
  await deps.imports.update(job.accountId, job.id, { total: paths.length, updatedAt: now(deps) });
  const imported = await importMembers(deps, { ...job, total: paths.length }, existing);
  let progress = imported.progress;
  // the source's files: those there before and those this run created, less those pruned
  const sourceFiles = new Set([...[...existing.values()].map((file) => file.id), ...imported.createdIds]);
  if (job.prune) {
    const present = new Set(paths.map((p) => prefix + p));
    const gone = [...existing.values()].filter((file) => !present.has(file.sourceKey ?? ''));
    progress = { ...progress, deleted: await prune(deps, progress, gone) };
    for (const file of gone) sourceFiles.delete(file.id);
  }
  if (job.memoryId) await intoMemory(deps, progress, job.memoryId, [...sourceFiles]);
  for (const memoryId of progress.refreshMemoryIds) {
    if (memoryId !== job.memoryId)
      await deps.queue.send({ kind: 'memory.refresh', accountId: job.accountId, memoryId } satisfies WorkMessage);
  }
  await finish(deps, progress, 'completed');
}

/** The etags recorded at the last import by member path: members the survey need not read (nor will the import). */
function unchangedMembers(job: FileImport, existing: ReadonlyMap<string, FileRecord>): Map<string, string> {
  const prefix = importSourcePrefix(job.source);
  return new Map(
    [...existing].flatMap(([sourceKey, file]) => {
      const etag = recordedEtag(job, file);
      return etag ? [[sourceKey.slice(prefix.length), etag] as const] : [];
    }),
  );
}

/** The members from the import's position on, in batches; answers the progress and the files created. */
async function importMembers(
  deps: ImportDeps,
  job: FileImport,
  existing: ReadonlyMap<string, FileRecord>,
): Promise<{ progress: FileImport; createdIds: string[] }> {
  let progress = job;
  const createdIds: string[] = [];
  let batch: ImportMemberRef[] = [];
  let batchBytes = 0;
  // the members' extraction reads the account's budget once, and again after each charge (not once a member)
  const memberDeps: ImportDeps = { ...deps, accounts: accountsReadBetweenCharges(deps.accounts) };
  const run = async () => {
    const done = await runBatch(memberDeps, progress, batch, existing);
    createdIds.push(...done.createdIds);
    progress = done.progress;
    batch = [];
    batchBytes = 0;
  };
  for await (const member of deps.importReader.members(job.source, job.position)) {
    batch.push(member);
    batchBytes += member.size; // a tar member's bytes are held from the walk on
    if (batch.length >= BATCH_MEMBERS || batchBytes >= deps.config.imports.batchBytes) await run();
  }
  if (batch.length) await run();
  return { progress, createdIds };
}

async function runBatch(
  deps: ImportDeps,
  job: FileImport,
  batch: ImportMemberRef[],
  existing: ReadonlyMap<string, FileRecord>,
): Promise<{ progress: FileImport; createdIds: string[] }> {
  const prefix = importSourcePrefix(job.source);
  // with a memory to ingest into, the batch's texts are staged for it as one object (ingest/staged-texts.ts)
  const stagingKey = job.memoryId ? objectKeys.stagedTexts(job.accountId, job.id, job.position) : undefined;
  const outcomes = await mapConcurrently(batch, deps.config.imports.concurrency, (member) => {
    const sourceKey = prefix + member.path;
    return importMember(deps, job, { ...member, sourceKey, ...(stagingKey ? { stagingKey } : {}) }, existing.get(sourceKey));
  });
  if (stagingKey)
    await stageTexts(
      deps.objects,
      stagingKey,
      outcomes.flatMap((o) => ('staged' in o && o.staged ? [o.staged] : [])),
    );
  const createdFiles = outcomes.flatMap((o) => (o.kind === 'created' ? [o.file] : []));
  await deps.files.createMany(createdFiles);
  const changed = await markLinksChanged(
    deps,
    job.accountId,
    outcomes.flatMap((o) => (o.kind === 'updated' ? [o.id] : [])),
  );
  const refreshMemoryIds = [...new Set([...job.refreshMemoryIds, ...changed.keys()])];
  const count = (kind: Outcome['kind']) => outcomes.filter((o) => o.kind === kind && !o.error).length;
  const problems: ImportError[] = outcomes.flatMap((o, i) =>
    o.error ? [{ sourceKey: prefix + (batch[i]?.path ?? ''), error: o.error }] : [],
  );
  const next: FileImport = {
    ...job,
    created: job.created + count('created'),
    updated: job.updated + count('updated'),
    unchanged: job.unchanged + count('unchanged'),
    failed: job.failed + problems.length,
    errors: [...job.errors, ...problems].slice(0, IMPORT_ERRORS_LISTED),
    position: job.position + batch.length,
    refreshMemoryIds,
    updatedAt: now(deps),
  };
  const { created, updated, unchanged, failed, errors, position, updatedAt } = next;
  const saved = { created, updated, unchanged, failed, errors, position, refreshMemoryIds, updatedAt };
  await deps.imports.update(job.accountId, job.id, saved);
  return { progress: next, createdIds: createdFiles.map((file) => file.id) };
}

/** Deletes the files of the source whose member or object is gone, first taking them out of their memories (in batches). */
async function prune(deps: ImportDeps, job: FileImport, gone: readonly FileRecord[]): Promise<number> {
  const { accountId } = job;
  const links = (await mapConcurrently(gone, deps.config.imports.concurrency, (file) => deps.links.listByFile(accountId, file.id))).flat();
  const byMemory = fileIdsByMemory(links);
  for (const [memoryId, fileIds] of byMemory) await deps.memories.excludeSources(accountId, memoryId, fileIds.map(fileSource));
  await deps.links.deleteMany(accountId, links); // the files themselves go next
  await deps.objects.deleteMany(links.map((link) => objectKeys.chunks(accountId, link.memoryId, link.fileId)));
  await removeImportedFiles(
    deps,
    accountId,
    gone.filter((file) => file.source === 'import'),
  );
  for (const file of gone.filter((file) => file.source !== 'import')) await removeFileData(deps, file); // a sourceKey a caller gave
  for (const memoryId of byMemory.keys()) {
    // a memory that ingests again after this import publishes without the pruned files anyway: one build, not two
    const ingestsAgain = job.refreshMemoryIds.includes(memoryId) || (memoryId === job.memoryId && job.created + job.updated > 0);
    if (ingestsAgain) continue;
    await deps.queue.send({ kind: 'memory.reindex', accountId, memoryId } satisfies WorkMessage);
  }
  return job.deleted + gone.length;
}

/**
 * Adds the source's files not yet in the memory, then has the memory ingest what waits (when it is free).
 * The files are the ones the import listed and created, not listed again: one the user deletes meanwhile
 * may still be linked, as it could be after any listing, and its ingestion reports it deleted.
 */
async function intoMemory(deps: ImportDeps, job: FileImport, memoryId: string, ids: readonly string[]): Promise<void> {
  const linked = await deps.links.getMany(job.accountId, memoryId, ids);
  const at = now(deps);
  const missing = ids.filter((id) => !linked.has(id));
  await deps.links.createMany(
    missing.map((fileId) => ({
      id: deps.ids.uuid(),
      accountId: job.accountId,
      memoryId,
      fileId,
      type: 'file',
      ingestedAt: null,
      createdAt: at,
      updatedAt: at,
    })),
  );
  const excluded = new Set((await deps.memories.get(job.accountId, memoryId))?.excludedFileIds ?? []);
  await deps.memories.includeSources(job.accountId, memoryId, missing.filter((id) => excluded.has(id)).map(fileSource));
  await deps.queue.send({ kind: 'memory.refresh', accountId: job.accountId, memoryId } satisfies WorkMessage);
}

async function finish(deps: ImportDeps, job: FileImport, state: 'completed' | 'failed'): Promise<void> {
  const updatedAt = now(deps);
  const { deleted, failed, errors } = job;
  await deps.imports.update(job.accountId, job.id, { state, deleted, failed, errors, updatedAt });
  if (!job.memoryId) return;
  const memory = await deps.memories.get(job.accountId, job.memoryId);
  const { created, updated, unchanged, total } = job;
  await emitWebhookEvent(deps, {
    accountId: job.accountId,
    url: memory?.webhookUrl ?? null,
    type: state === 'completed' ? 'file.import.completed' : 'file.import.failed',
    data: { importID: job.id, memoryID: job.memoryId, total, created, updated, unchanged, deleted, failed, errors: errors.slice(0, 10) },
    eventId: `${job.id}.import`,
  });
}

function now(deps: Pick<ImportDeps, 'clock'>): string {
  return deps.clock.now().toISOString();
}
