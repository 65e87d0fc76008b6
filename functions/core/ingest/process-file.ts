/**
 * The `file.process` work: fetch or read a file's raw bytes, extract its text, count its tokens and store
 * the text as the file's silver transcript. Idempotent: a file already ready or failed is left alone, and
 * a redelivered message rewrites the same objects.
 */
import type { FileRecord } from '../model';
import { objectKeys } from '../object-keys';
import type { Clock, FileStore, ObjectStore } from '../ports';
import { countTokens, loadTokenizer } from '../text/tokens';
import { type ContentExtractor, FileProcessingError, type RemoteFetcher } from './ports';

export interface ProcessFileDeps {
  files: FileStore;
  objects: ObjectStore;
  extractor: ContentExtractor;
  fetcher: RemoteFetcher;
  clock: Clock;
}

export type ProcessOutcome = 'ready' | 'failed' | 'skipped';

export async function processFile(deps: ProcessFileDeps, accountId: string, fileId: string): Promise<ProcessOutcome> {
  const file = await deps.files.get(accountId, fileId);
  if (!file || file.state === 'ready' || file.state === 'failed') return 'skipped';
  await deps.files.update(accountId, fileId, { state: 'processing', updatedAt: now(deps) }, ['pending', 'processing']);
  try {
    await extractAndStore(deps, file);
    return 'ready';
  } catch (error) {
    if (!(error instanceof FileProcessingError)) throw error;
    await failFile(deps, file, error.message);
    return 'failed';
  }
}

/** Marks a file failed with a reason a person understands. */
export async function failFile(deps: Pick<ProcessFileDeps, 'files' | 'clock'>, file: FileRecord, reason: string): Promise<void> {
  await deps.files.update(file.accountId, file.id, { state: 'failed', error: reason, updatedAt: now(deps) });
}

async function extractAndStore(deps: ProcessFileDeps, file: FileRecord): Promise<void> {
  const raw = await rawBytes(deps, file);
  const content = await deps.extractor.extract(file, raw.bytes, raw.contentType);
  const text = content.text.trim();
  if (!text) throw new FileProcessingError('no text could be extracted from the file');
  await loadTokenizer();
  const transcriptKey = objectKeys.transcript(file.accountId, file.id);
  await deps.objects.put(transcriptKey, text, 'text/plain; charset=utf-8');
  let audioKey: string | null = null;
  if (content.audio) {
    audioKey = objectKeys.audio(file.accountId, file.id);
    await deps.objects.put(audioKey, content.audio, 'audio/wav');
  }
  await deps.files.update(file.accountId, file.id, {
    state: 'ready',
    error: null,
    bronzeKey: raw.bronzeKey,
    silverTranscriptKey: transcriptKey,
    silverAudioKey: audioKey,
    length: content.lengthSeconds ?? text.length,
    numSpeakers: content.numSpeakers ?? null,
    size: raw.bytes.length,
    tokens: countTokens(text),
    updatedAt: now(deps),
  });
}

/** The uploaded bytes, or the fetched ones (kept under the bronze prefix). */
async function rawBytes(
  deps: ProcessFileDeps,
  file: FileRecord,
): Promise<{ bytes: Uint8Array; contentType: string | null; bronzeKey: string }> {
  if (file.source === 'upload' && file.bronzeKey) {
    const bytes = await deps.objects.get(file.bronzeKey);
    if (!bytes) throw new FileProcessingError('the uploaded bytes are missing from storage; upload the file again');
    return { bytes, contentType: file.contentType, bronzeKey: file.bronzeKey };
  }
  if (!file.externalURI) throw new FileProcessingError('the file has neither an upload key nor an external_uri');
  const fetched = await deps.fetcher.fetch(file.externalURI);
  const bronzeKey = objectKeys.fetched(file.accountId, file.id, file.extension ? `original.${file.extension}` : 'original');
  await deps.objects.put(bronzeKey, fetched.bytes, fetched.contentType ?? 'application/octet-stream');
  return { bytes: fetched.bytes, contentType: fetched.contentType, bronzeKey };
}

function now(deps: Pick<ProcessFileDeps, 'clock'>): string {
  return deps.clock.now().toISOString();
}
