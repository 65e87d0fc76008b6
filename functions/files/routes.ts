/** The files group: each route calls one use case and shapes the answer. */
import type { Container } from '../adapters/container';
import type { FileRecord } from '../core/model';
import { createOrUpdateFile, resyncFile, setFileMetadata } from '../core/use-cases/file-sources';
import { getImport, startImport } from '../core/use-cases/imports';
import { contentAddress, createUploadUrl, deleteFile, getFile, listFiles, uploadFile } from '../core/use-cases/files';
import { dataResponse, deletedResponse, listResponse } from '../http/responses';
import { truncated } from '../http/response-budget';
import { bind, type BoundRoute } from '../http/handler';
import { readFilePart } from '../http/multipart';
import { filesApi } from './schemas';

/** Presigned upload addresses (and whole-content addresses) stay valid this long. */
const UPLOAD_URL_SECONDS = 15 * 60;
/**
 * Characters of extracted text files/get carries (at most ~3.5 MB on the wire whatever the text); a longer
 * text comes with `contentTruncated: true` and `contentUrl`, an address to GET it whole.
 */
const FILE_CONTENT_CHARS = 500_000;

const common = (file: FileRecord) => ({
  id: file.id,
  name: file.name,
  extension: file.extension,
  fileType: file.fileType,
  category: file.category,
  bronzeKey: file.bronzeKey,
  numSpeakers: file.numSpeakers,
  state: file.state,
  error: file.error,
  createdAt: file.createdAt,
  updatedAt: file.updatedAt,
});

const presentCreated = (file: FileRecord) => ({
  ...common(file),
  organisationID: file.accountId,
  externalURI: file.externalUrl,
  originRegion: file.originRegion,
});

const presentListed = (file: FileRecord) => ({
  ...common(file),
  userID: file.accountId,
  length: file.length,
  size: file.size,
  tokens: file.tokens,
  metadata: file.metadata,
});

export const fileRoutes = (deps: Container): BoundRoute[] => [
  bind(filesApi.upload, async ({ raw, headers }, { accountId }) => {
    const part = await readFilePart(raw, headers['content-type'], deps.config.maxUploadBytes);
    const upload = await uploadFile(deps, accountId, part);
    return dataResponse({ key: upload.key, name: upload.name, size: upload.size, contentType: upload.contentType });
  }),
  bind(filesApi.uploadUrl, async ({ body }, { accountId }) => {
    const { upload, uploadUrl } = await createUploadUrl(deps, accountId, body, UPLOAD_URL_SECONDS);
    const expiresAt = new Date(deps.clock.now().getTime() + UPLOAD_URL_SECONDS * 1000).toISOString();
    return dataResponse({ key: upload.key, name: upload.name, size: upload.size, contentType: upload.contentType, uploadUrl, expiresAt });
  }),
  bind(filesApi.create, async ({ body: { external_uri, ...file } }, { accountId }) => {
    const created = await createOrUpdateFile(deps, accountId, { ...file, externalUrl: external_uri });
    return dataResponse(presentCreated(created));
  }),
  bind(filesApi.list, async ({ query }, { accountId }) =>
    listResponse('files', await listFiles(deps, accountId, query.category, query), presentListed),
  ),
  bind(filesApi.get, async ({ params }, { accountId }) => {
    const { file, content: whole, memoryId } = await getFile(deps, accountId, params.id);
    const { content, contentTruncated } = truncated(whole ?? '', FILE_CONTENT_CHARS);
    const contentUrl = contentTruncated ? await contentAddress(deps, file, UPLOAD_URL_SECONDS) : null;
    return dataResponse({
      ...presentListed(file),
      externalURI: file.externalUrl,
      memoryID: memoryId,
      botID: null,
      jobID: file.jobId,
      source: file.source,
      originRegion: file.originRegion,
      silverTranscriptKey: file.silverTranscriptKey,
      silverAudioKey: file.silverAudioKey,
      goldAudioKey: null,
      goldChunkKey: file.goldChunkKey,
      goldGraphKey: null,
      aiKey: null,
      content: whole === null ? null : content,
      contentTruncated,
      contentUrl,
      sourceKey: file.sourceKey,
      hiddenFilesTotal: file.hiddenFilesTotal,
      hiddenFilesProcessed: file.hiddenFilesProcessed,
      hiddenFilesCreated: file.hiddenFilesCreated,
      hiddenFilesIngested: file.hiddenFilesIngested,
    });
  }),
  bind(filesApi.import, async ({ body: { memoryID, ...request } }, { accountId }) => {
    const started = await startImport(deps, accountId, { ...request, memoryId: memoryID });
    return dataResponse({ importID: started.id });
  }),
  bind(filesApi.importStatus, async ({ params }, { accountId }) => {
    const found = await getImport(deps, accountId, params.id);
    const { total, created, updated, unchanged, deleted, failed, errors, state, createdAt, updatedAt } = found;
    return dataResponse({
      importID: found.id,
      state,
      total,
      created,
      updated,
      unchanged,
      deleted,
      failed,
      errors,
      memoryID: found.memoryId,
      createdAt,
      updatedAt,
    });
  }),
  bind(filesApi.resync, async ({ params }, { accountId }) => dataResponse(presentCreated(await resyncFile(deps, accountId, params.id)))),
  bind(filesApi.metadata, async ({ params, body }, { accountId }) =>
    dataResponse(presentListed(await setFileMetadata(deps, accountId, params.id, body.metadata))),
  ),
  bind(filesApi.delete, async ({ params }, { accountId }) => {
    await deleteFile(deps, accountId, params.id);
    return deletedResponse(`file '${params.id}' deleted`);
  }),
];
