/**
 * File records below both the file use cases and the worker pipeline: what file logic needs of the
 * world, a blank record to fill, and removing a file with its objects.
 */
import type { FileRecord } from '../model';
import { objectKeys } from '../object-keys';
import type { Clock, IdGenerator, LinkStore, ObjectStore, QueuePort } from '../ports';
import type { FileStore, UploadStore } from './ports';

export interface FileDeps {
  files: FileStore;
  uploads: UploadStore;
  links: LinkStore;
  objects: ObjectStore;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
  config: { maxUploadBytes: number; originRegion: string };
}

export function emptyFile(accountId: string, id: string, now: string, originRegion: string): FileRecord {
  return {
    id,
    accountId,
    name: '',
    extension: '',
    fileType: 'other',
    category: 'other',
    state: 'pending',
    error: null,
    bronzeKey: null,
    externalUrl: null,
    contentType: null,
    source: 'upload',
    parentFileId: null,
    jobId: null,
    originRegion,
    silverTranscriptKey: null,
    silverAudioKey: null,
    goldChunkKey: null,
    length: null,
    size: null,
    tokens: null,
    numSpeakers: null,
    hiddenFilesTotal: 0,
    hiddenFilesCreated: 0,
    hiddenFilesProcessed: 0,
    hiddenFilesIngested: 0,
    sourceKey: null,
    contentHash: null,
    validators: null,
    stagedTextKey: null,
    metadata: [],
    createdAt: now,
    updatedAt: now,
  };
}

export async function removeFileData(deps: Pick<FileDeps, 'objects' | 'uploads' | 'files'>, file: FileRecord): Promise<void> {
  if (file.source === 'import') return removeImportedFiles(deps, file.accountId, [file]);
  await deps.objects.deletePrefix(objectKeys.fileSilverPrefix(file.accountId, file.id));
  await deps.objects.deletePrefix(objectKeys.fetchedPrefix(file.accountId, file.id));
  if (file.bronzeKey && file.source === 'upload') {
    await deps.objects.delete(file.bronzeKey);
    await deps.uploads.delete(file.accountId, file.bronzeKey);
  }
  await deps.files.delete(file.accountId, file.id);
}

/** Deletes imported files: their artefacts are exactly their known keys (deleted in batches, with no listing), then their records. */
export async function removeImportedFiles(
  deps: Pick<FileDeps, 'objects' | 'files'>,
  accountId: string,
  files: readonly FileRecord[],
): Promise<void> {
  await deps.objects.deleteMany(files.flatMap(importedArtefacts));
  await deps.files.deleteMany(
    accountId,
    files.map((file) => file.id),
  );
}

/** The objects an imported file keeps: its member's bytes and its extracted text (and audio); one object when the bytes are the text. */
function importedArtefacts(file: Pick<FileRecord, 'bronzeKey' | 'silverTranscriptKey' | 'silverAudioKey'>): string[] {
  return [...new Set([file.bronzeKey, file.silverTranscriptKey, file.silverAudioKey])].filter((key): key is string => Boolean(key));
}
