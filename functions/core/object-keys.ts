/**
 * Keys of the artefact bucket, composed here and nowhere else. Every key starts with its layer and the
 * account: bronze (raw bytes), silver (extracted text, audio), gold (chunks and index segments); and two
 * short-lived ones the bucket expires: incoming (presigned uploads) and staging (texts an import stages).
 */
export const objectKeys = {
  /** Every prefix the account's objects lie under, one per layer (an account's erasure deletes them all). */
  accountPrefixes: (accountId: string): string[] =>
    ['bronze', 'silver', 'gold', 'incoming', 'staging'].map((layer) => `${layer}/${accountId}/`),
  upload: (accountId: string, uploadId: string, name: string): string => `bronze/${accountId}/${uploadId}/${name}`,
  /**
   * Where a presigned upload's bytes land; files/create copies them to the upload key, which only the
   * service writes, so a later PUT to the address changes nothing a file uses (the bucket expires these).
   */
  incoming: (accountId: string, uploadId: string, name: string): string => `incoming/${accountId}/${uploadId}/${name}`,
  incomingRoot: 'incoming/',
  /** One batch of an import's extracted texts, for the ingestion it starts (read once, then deleted; the bucket expires these). */
  stagedTexts: (accountId: string, importId: string, position: number): string =>
    `staging/${accountId}/imports/${importId}/${position}.json`,
  stagingRoot: 'staging/',
  /** Raw bytes the service fetched itself (web pages, sitemaps, remote files). */
  fetched: (accountId: string, fileId: string, name: string): string => `bronze/${accountId}/files/${fileId}/${name}`,
  fetchedPrefix: (accountId: string, fileId: string): string => `bronze/${accountId}/files/${fileId}/`,
  /** An imported member's bytes: each content has a key of its own (a plain-text member's is its transcript's too). */
  imported: (accountId: string, fileId: string, contentHash: string, name: string): string =>
    `bronze/${accountId}/files/${fileId}/${contentVersion(contentHash)}${name}`,
  fileSilverPrefix: (accountId: string, fileId: string): string => `silver/${accountId}/${fileId}/`,
  /** With a content hash (a file upserted by source), each content's text has a key of its own. */
  transcript: (accountId: string, fileId: string, contentHash?: string | null): string =>
    `silver/${accountId}/${fileId}/${contentVersion(contentHash)}transcript.txt`,
  audio: (accountId: string, fileId: string, contentHash?: string | null): string =>
    `silver/${accountId}/${fileId}/${contentVersion(contentHash)}audio.wav`,
  crawlState: (accountId: string, fileId: string): string => `silver/${accountId}/${fileId}/crawl-state.json`,
  memoryPrefix: (accountId: string, memoryId: string): string => `gold/${accountId}/memories/${memoryId}/`,
  chunks: (accountId: string, memoryId: string, fileId: string): string => `gold/${accountId}/memories/${memoryId}/chunks/${fileId}.json`,
  chunksPrefix: (accountId: string, memoryId: string): string => `gold/${accountId}/memories/${memoryId}/chunks/`,
  /** An export archive of the memory (under its prefix: deleting the memory deletes its exports). */
  exportArchive: (accountId: string, memoryId: string, exportId: string): string =>
    `gold/${accountId}/memories/${memoryId}/exports/${exportId}.kmem.tar.gz`,
  exportsPrefix: (accountId: string, memoryId: string): string => `gold/${accountId}/memories/${memoryId}/exports/`,
  indexRoot: (accountId: string, memoryId: string): string => `gold/${accountId}/memories/${memoryId}/index/`,
  /** One build of version `version`: concurrent builds of a version never share a folder. */
  indexPrefix: (accountId: string, memoryId: string, version: number, buildId: string): string =>
    `gold/${accountId}/memories/${memoryId}/index/v${version}-${buildId}/`,
  /** One segment of a memory's index, written for version `version` (docs/segments.md). */
  indexSegmentPrefix: (accountId: string, memoryId: string, version: number, segmentId: string): string =>
    `gold/${accountId}/memories/${memoryId}/index/s${version}-${segmentId}/`,
  /** One build of an account's message index (GET /messages/search). */
  messageIndexRoot: (accountId: string): string => `gold/${accountId}/messages/index/`,
  messageIndexPrefix: (accountId: string, version: number, buildId: string): string =>
    `gold/${accountId}/messages/index/v${version}-${buildId}/`,
  /** One segment of an account's message index, written for version `version` (docs/segments.md). */
  messageIndexSegmentPrefix: (accountId: string, version: number, segmentId: string): string =>
    `gold/${accountId}/messages/index/s${version}-${segmentId}/`,
  /** A session's summary as GET /sessions/summary/{id} answers it, and the state its next update starts from. */
  sessionSummary: (accountId: string, sessionId: string): string => `gold/${accountId}/sessions/${sessionId}/summary.json`,
  sessionSummaryState: (accountId: string, sessionId: string): string => `gold/${accountId}/sessions/${sessionId}/summary-state.json`,
} as const;

/** The folder of one content of a file (two processings of different contents never write the same key). */
function contentVersion(contentHash: string | null | undefined): string {
  return contentHash ? `${contentHash.slice(0, 16)}/` : '';
}
