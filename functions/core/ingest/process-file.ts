/**
 * The `file.process` work: read a file's raw bytes (uploaded, or fetched from its address), extract its
 * text, count its tokens and store the text as the file's silver transcript. Web sources go through
 * web-sources.ts. Idempotent: a file already ready or failed is left alone, the final state is written
 * only from `processing` (so a repeated message settles a file once), and objects are rewritten whole.
 */
import { ConflictError } from '../errors';
import { WEB_FILE_TYPES } from '../files/file-kinds';
import type { FileRecord } from '../model';
import { objectKeys } from '../object-keys';
import { countTokens, loadTokenizer } from '../../engine';
import { chargedExtraction, type ExtractionChargeDeps } from './extraction-charge';
import { childSettled } from './hidden-files';
import { emitMetric } from '../metrics';
import { type ContentExtractor, type FileContent, FileProcessingError, RefusedFileError, type RemoteFetcher } from './ports';
import { readWebSource, type WebSourceDeps } from './web-sources';

export interface ProcessFileDeps extends WebSourceDeps {
  extractor: ContentExtractor;
  fetcher: RemoteFetcher;
  accounts: ExtractionChargeDeps['accounts'];
  config: WebSourceDeps['config'] & ExtractionChargeDeps['config'];
}

export type ProcessOutcome = 'ready' | 'failed' | 'waiting' | 'skipped';

export async function processFile(deps: ProcessFileDeps, accountId: string, fileId: string): Promise<ProcessOutcome> {
  const file = await startProcessing(deps, accountId, fileId);
  if (!file) return 'skipped';
  let outcome: ProcessOutcome;
  const properties = { accountId, fileId };
  try {
    outcome = await readAndStore(deps, file);
  } catch (error) {
    if (!(error instanceof FileProcessingError)) throw error;
    if (error instanceof RefusedFileError) emitMetric('HostileFilesRefused', 1, { dimension: file.fileType, properties });
    outcome = (await failFile(deps, file, error.message)) ? 'failed' : 'skipped';
  }
  if (outcome === 'ready') emitMetric('FilesProcessed', 1, { dimension: file.fileType, properties });
  if (outcome === 'failed') emitMetric('FilesFailed', 1, { dimension: file.fileType, properties });
  if (file.parentFileId && (outcome === 'ready' || outcome === 'failed')) await childSettled(deps, file);
  return outcome;
}

/** Moves a pending (or interrupted) file to `processing` in one write; undefined when it is gone or settled. */
async function startProcessing(deps: ProcessFileDeps, accountId: string, fileId: string): Promise<FileRecord | undefined> {
  try {
    return await deps.files.update(accountId, fileId, { state: 'processing', updatedAt: now(deps) }, ['pending', 'processing']);
  } catch (error) {
    if (error instanceof ConflictError) return undefined; // ready or failed already
    throw error;
  }
}

async function readAndStore(deps: ProcessFileDeps, file: FileRecord): Promise<ProcessOutcome> {
  if (WEB_FILE_TYPES.has(file.fileType)) {
    const web = await readWebSource(deps, file);
    if (web.kind === 'parent') return 'waiting';
    return settle(
      deps,
      file,
      { text: web.text, title: web.title },
      { bronzeKey: web.bronzeKey, size: web.size, validators: web.validators },
    );
  }
  const raw = await rawBytes(deps, file);
  const { result: content } = await chargedExtraction(deps, file, () => deps.extractor.extract(file, raw.bytes, raw.contentType));
  return settle(deps, file, content, { bronzeKey: raw.bronzeKey, size: raw.bytes.length });
}

/** Stores the text (and a video's audio) and marks the file ready, once. */
async function settle(
  deps: ProcessFileDeps,
  file: FileRecord,
  content: FileContent,
  raw: { bronzeKey: string; size: number; validators?: FileRecord['validators'] },
): Promise<ProcessOutcome> {
  const ready = { ...(await storeContent(deps, file, content)).fields, ...raw };
  if (await settleOnce(deps, file, ready)) {
    await deps.objects.deleteMany(supersededText(file, ready)); // the previous content's text, kept until now
    return 'ready';
  }
  await dropIfSuperseded(deps, file, ready);
  return 'skipped';
}

/** The text objects `before` had that `after` no longer names (a file's previous content), never `after`'s raw bytes. */
export function supersededText(
  before: Pick<FileRecord, 'silverTranscriptKey' | 'silverAudioKey'>,
  after: Partial<Pick<FileRecord, 'silverTranscriptKey' | 'silverAudioKey' | 'bronzeKey'>>,
): string[] {
  const kept = new Set([after.silverTranscriptKey, after.silverAudioKey, after.bronzeKey]);
  return [before.silverTranscriptKey, before.silverAudioKey].filter((key): key is string => Boolean(key) && !kept.has(key));
}

/**
 * This run lost its settle: when the file's content changed meanwhile (an upsert), what it stored under
 * its own content's keys goes; the run of the newer content stores and settles that one.
 */
async function dropIfSuperseded(deps: ProcessFileDeps, file: FileRecord, stored: Partial<FileRecord>): Promise<void> {
  if (!file.contentHash) return;
  const current = await deps.files.get(file.accountId, file.id);
  if (current?.contentHash === file.contentHash) return; // settled by another run of this same content
  await deps.objects.deleteMany([stored.silverTranscriptKey, stored.silverAudioKey].filter((key): key is string => Boolean(key)));
}

/**
 * Stores a file's extracted text (and a video's audio) as its silver artefacts; answers the file's ready
 * fields and the text as stored. Given the raw bytes still to store (`raw`, under a key of their content's
 * own) and a text that is those bytes give or take surrounding whitespace (plain UTF-8 text, with its final
 * newline), one object is both: the bytes, stored once at the raw key, as text. `silverTranscriptKey` then
 * equals `bronzeKey` (readers of a transcript trim it), and the caller stores nothing more.
 */
export async function storeContent(
  deps: Pick<ProcessFileDeps, 'objects' | 'clock'>,
  file: Pick<FileRecord, 'accountId' | 'id' | 'contentHash'>,
  content: FileContent,
  raw?: { key: string; bytes: Uint8Array },
): Promise<{ fields: Partial<FileRecord>; text: string }> {
  const text = content.text.trim();
  if (!text) throw new FileProcessingError('no text could be extracted from the file');
  await loadTokenizer();
  const same = raw && holdsText(raw.bytes, text);
  const transcriptKey = same ? raw.key : objectKeys.transcript(file.accountId, file.id, file.contentHash);
  await deps.objects.put(transcriptKey, same ? raw.bytes : text, 'text/plain; charset=utf-8');
  let audioKey: string | null = null;
  if (content.audio) {
    audioKey = objectKeys.audio(file.accountId, file.id, file.contentHash);
    await deps.objects.put(audioKey, content.audio, 'audio/wav');
  }
  const fields: Partial<FileRecord> = {
    state: 'ready',
    error: null,
    silverTranscriptKey: transcriptKey,
    silverAudioKey: audioKey,
    length: content.lengthSeconds ?? text.length,
    numSpeakers: content.numSpeakers ?? null,
    tokens: countTokens(text),
    updatedAt: now(deps),
  };
  return { fields, text };
}

/** Whether `bytes` are `text` in UTF-8, give or take surrounding whitespace (a text file's final newline). */
function holdsText(bytes: Uint8Array, text: string): boolean {
  return bytes.length >= text.length && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8').trim() === text;
}

/** Marks a file failed with a reason a person understands; false when it had settled already. */
export function failFile(deps: Pick<ProcessFileDeps, 'files' | 'clock'>, file: FileRecord, reason: string): Promise<boolean> {
  return settleOnce(deps, file, { state: 'failed', error: reason, updatedAt: now(deps) });
}

/** Settles the file from `pending` or `processing`, and only while its content is the one this run read. */
async function settleOnce(deps: Pick<ProcessFileDeps, 'files'>, file: FileRecord, changes: Partial<FileRecord>): Promise<boolean> {
  try {
    await deps.files.update(file.accountId, file.id, changes, ['pending', 'processing'], file.contentHash ?? undefined);
    return true;
  } catch (error) {
    if (error instanceof ConflictError) return false;
    throw error;
  }
}

/** The uploaded bytes, or the fetched ones (kept under the bronze prefix). */
async function rawBytes(
  deps: ProcessFileDeps,
  file: FileRecord,
): Promise<{ bytes: Uint8Array; contentType: string | null; bronzeKey: string }> {
  if ((file.source === 'upload' || file.source === 'import') && file.bronzeKey) {
    const bytes = await deps.objects.get(file.bronzeKey);
    if (!bytes) throw new FileProcessingError('the uploaded bytes are missing from storage; upload the file again');
    return { bytes, contentType: file.contentType, bronzeKey: file.bronzeKey };
  }
  if (!file.externalUrl) throw new FileProcessingError('the file has neither an upload key nor an external_uri');
  const fetched = await deps.fetcher.fetch(file.externalUrl);
  const bronzeKey = objectKeys.fetched(file.accountId, file.id, file.extension ? `original.${file.extension}` : 'original');
  await deps.objects.put(bronzeKey, fetched.bytes, fetched.contentType ?? 'application/octet-stream');
  return { bytes: fetched.bytes, contentType: fetched.contentType, bronzeKey };
}

function now(deps: Pick<ProcessFileDeps, 'clock'>): string {
  return deps.clock.now().toISOString();
}
