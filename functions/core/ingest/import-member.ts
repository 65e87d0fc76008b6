/**
 * One member of a bulk import: unchanged (nothing read when its ETag or zip fingerprint says so), changed
 * (its file's content replaced) or new (a file, which the batch writes with the others). A member whose
 * text is its bytes is stored once; with a memory to ingest into, its text is staged with its batch's.
 */
import { createHash } from 'node:crypto';
import { categoryOf, extensionOf } from '../files/file-kinds';
import type { FileRecord, MetadataEntry } from '../model';
import { objectMetadataEntries, sameMetadata, withMetadata } from '../files/file-metadata';
import type { FileImport } from '../files/bulk-import';
import { objectKeys } from '../object-keys';
import { emptyFile } from '../files/file-records';
import { chargedExtraction } from './extraction-charge';
import type { ImportDeps } from './run-import';
import { FileProcessingError, type ImportMemberRef } from './ports';
import { storeContent, supersededText } from './process-file';
import { isStageable, type StagedText } from './staged-texts';

const INTERNAL_FAILURE = 'the member could not be processed because of an internal error; import again to retry';

export type Outcome =
  | { kind: 'created'; file: FileRecord; error?: string; staged?: StagedText }
  | { kind: 'updated'; id: string; error?: string; staged?: StagedText }
  | { kind: 'unchanged'; error?: string }
  | { kind: 'failed'; error: string };

type Member = ImportMemberRef & { sourceKey: string; stagingKey?: string };

/** One member: unchanged (nothing), changed (its file's content replaced) or new (a file, written with the batch). */
export async function importMember(deps: ImportDeps, job: FileImport, member: Member, old: FileRecord | undefined): Promise<Outcome> {
  if (old && member.etag && recordedEtag(job, old) === member.etag) return unchangedByEtag(deps, job, member, old);
  const loaded = await loadMember(member);
  if (!('bytes' in loaded)) return loaded;
  const { bytes } = loaded;
  const contentHash = createHash('sha256').update(bytes).digest('hex');
  const fileType = job.fileType ?? deps.extractor.fileTypeOf(bytes);
  const metadata = await memberMetadata(job, member);
  if (old && old.contentHash === contentHash && old.fileType === fileType) {
    await rememberEtag(deps, job, member, old);
    await keepMetadata(deps, old, metadata);
    return { kind: 'unchanged' };
  }
  const id = old?.id ?? deps.ids.uuid();
  const raw = { ...memberFields(job, member, id, bytes, contentHash, fileType), metadata };
  const bronzeKey = raw.bronzeKey;
  const base: FileRecord = { ...(old ?? emptyFile(job.accountId, id, now(deps), deps.config.originRegion)), ...raw };
  const { fields: content, text } = await extracted(deps, base, { key: bronzeKey, bytes });
  if (content.silverTranscriptKey !== bronzeKey) await deps.objects.put(bronzeKey, bytes, 'application/octet-stream');
  const stageable = member.stagingKey && text !== undefined && isStageable(text);
  content.stagedTextKey = stageable ? (member.stagingKey ?? null) : null;
  const staged = stageable ? { staged: { fileId: id, contentHash, text } } : {};
  const problem = content.error ? { error: content.error } : {};
  if (!old) return { kind: 'created', file: { ...base, ...content }, ...problem, ...staged };
  await replaceContent(deps, job.accountId, old, { ...raw, ...content }, bronzeKey);
  return { kind: 'updated', id, ...problem, ...staged };
}

/** The member's bytes, or its failure (a refusal the reader explains, or an internal error). */
async function loadMember(member: Member): Promise<{ bytes: Uint8Array } | { kind: 'failed'; error: string }> {
  try {
    return { bytes: await member.load() };
  } catch (error) {
    return { kind: 'failed', error: error instanceof FileProcessingError ? error.message : INTERNAL_FAILURE };
  }
}

/** A member listed with the ETag recorded: not read; its file takes the metadata the import gives now (none on either side: no HEAD either). */
async function unchangedByEtag(deps: ImportDeps, job: FileImport, member: Member, old: FileRecord): Promise<Outcome> {
  if (job.metadata.length > 0 || old.metadata.length > 0) await keepMetadata(deps, old, await memberMetadata(job, member));
  return { kind: 'unchanged' };
}

/** The member's metadata: the import's, with an S3 object's own user metadata on top (a failed read keeps the import's alone). */
async function memberMetadata(job: FileImport, member: Member): Promise<MetadataEntry[]> {
  if (!member.userMetadata) return job.metadata;
  const own = await member.userMetadata().catch(() => ({}));
  return withMetadata(job.metadata, objectMetadataEntries(own));
}

/** An unchanged member's file takes the metadata the import gives it now (an upsert replaces metadata), with nothing processed again. */
async function keepMetadata(deps: ImportDeps, old: FileRecord, metadata: MetadataEntry[]): Promise<void> {
  if (!sameMetadata(old.metadata, metadata)) await deps.files.update(old.accountId, old.id, { metadata, updatedAt: now(deps) });
}

/** The same bytes under a new ETag (or one not recorded yet): remembered, so the next import need not read them. */
async function rememberEtag(deps: ImportDeps, job: FileImport, member: Member, old: FileRecord): Promise<void> {
  if (member.etag && old.validators?.etag !== member.etag)
    await deps.files.update(job.accountId, old.id, { validators: { etag: member.etag } });
}

/** The file fields a member's bytes give, before extraction. */
function memberFields(
  job: FileImport,
  member: Member,
  id: string,
  bytes: Uint8Array,
  contentHash: string,
  fileType: FileRecord['fileType'],
) {
  const name = memberName(member.path);
  const extension = extensionOf(name);
  const bronzeKey = objectKeys.imported(job.accountId, id, contentHash, extension ? `original.${extension}` : 'original');
  return {
    name,
    extension,
    fileType,
    category: categoryOf(fileType),
    source: 'import',
    bronzeKey,
    externalUrl: null,
    contentType: null,
    size: bytes.length,
    contentHash,
    sourceKey: member.sourceKey,
    validators: member.etag ? { etag: member.etag } : null,
  } satisfies Partial<FileRecord>;
}

/**
 * A changed member's file takes its new fields; the previous content's objects go once the file names the
 * new ones (a same-named member overwrote its bytes). A failed extraction keeps the previous text, even when
 * it is the previous bytes (a plain-text member's).
 */
async function replaceContent(
  deps: ImportDeps,
  accountId: string,
  old: FileRecord,
  fields: Partial<FileRecord>,
  bronzeKey: string,
): Promise<void> {
  await deps.files.update(accountId, old.id, { ...fields, tokens: fields.tokens ?? null });
  const ready = fields.state === 'ready';
  const superseded = [
    old.source === 'import' ? (old.bronzeKey ?? '') : '',
    ...(ready ? supersededText(old, { ...fields, bronzeKey }) : []),
  ];
  const kept = new Set([bronzeKey, ready ? '' : old.silverTranscriptKey]);
  await deps.objects.deleteMany([...new Set(superseded)].filter((key) => key && !kept.has(key)));
}

/**
 * The ETag an S3 object had at the last import (a zip member's CRC-32 and size), which the same listed again
 * means the same bytes: not even read. None when the import asks for another file type (then it is read).
 */
export function recordedEtag(job: FileImport, old: FileRecord): string | undefined {
  return !job.fileType || job.fileType === old.fileType ? (old.validators?.etag ?? undefined) : undefined;
}

/** The file's ready fields and text (stored, with its raw bytes when they are the text), or its failed state with the reason. */
async function extracted(
  deps: ImportDeps,
  file: FileRecord,
  raw: { key: string; bytes: Uint8Array },
): Promise<{ fields: Partial<FileRecord>; text?: string }> {
  try {
    // charged to the account's budget as files/create's extraction is; none once the budget is used up
    const { result: content } = await chargedExtraction(deps, file, () => deps.extractor.extract(file, raw.bytes, null));
    return await storeContent(deps, file, content, raw);
  } catch (error) {
    const reason = error instanceof FileProcessingError ? error.message : INTERNAL_FAILURE;
    return { fields: { state: 'failed', error: reason, updatedAt: now(deps) } };
  }
}

/** A member's file name: the last segment of its path (a name, never a path). */
function memberName(path: string): string {
  // eslint-disable-next-line no-control-regex
  const last = (path.split('/').pop() ?? '').replace(/[\u0000-\u001f\u007f\\]/g, '_').slice(-255);
  return last && last !== '.' && last !== '..' ? last : 'member';
}

function now(deps: Pick<ImportDeps, 'clock'>): string {
  return deps.clock.now().toISOString();
}
