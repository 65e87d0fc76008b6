/**
 * The bulk path of bench:ingest (`--path archive` or `--path s3`): the whole corpus as one uploaded zip,
 * or as objects under an S3 prefix of the runtime's own store, imported with POST /files/import straight
 * into a vector memory. Then a re-import with 50 changed and 50 removed documents (`prune`): only those
 * are reprocessed. bench/ingest.ts measures and prints; this module drives the API.
 */
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ZipFile } from 'yazl';
import type { ApiClient } from './support/api';
import { inParallel } from './support/api';

export interface BulkDoc {
  _id: string;
  title: string;
  text: string;
}

export interface BulkRun {
  api: ApiClient;
  url: string;
  apiKey: string;
  s3Endpoint: string;
  path: 'archive' | 's3';
  /** The archive's folder and name (default `scifact`). */
  folder?: string;
  /** Measures one stage (wall time, server CPU, store requests) under `name`. */
  timed<T>(name: string, work: () => Promise<T>): Promise<T>;
}

export interface ImportCounts {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
}

const CHANGED = 50;
const REMOVED = 50;

const body = (doc: BulkDoc) => `${doc.title}\n\n${doc.text}`;

/**
 * First import, then the re-import with changes; answers both imports' counts. Each is timed until a
 * search finds its documents (the index is published), then until the memory is `ready` (each file's
 * chunk artefact and link written after the publish). An S3 prefix is filled before the clock starts
 * (a user's objects are there already); an archive is built before it too (a user's archive exists) and uploaded inside it.
 */
export async function runBulk(run: BulkRun, docs: BulkDoc[]): Promise<{ first: ImportCounts; second: ImportCounts }> {
  const memory = (await run.api.post('/memories/create', { name: 'bulk', memoryType: 'vector' })).data as { id: string };
  const firstSource = run.path === 's3' ? await putObjects(run, docs, false) : await buildArchive(run, docs);
  const first = await run.timed('import + ingestion: corpus searchable', async () => {
    const counts = await importDocs(run, firstSource, memory.id, false);
    await searchable(run.api, memory.id, docs.length, docs[docs.length - 1]?.title ?? '');
    return counts;
  });
  await run.timed('  then memory ready', () => ready(run.api, memory.id));
  const changed = docs.slice(0, CHANGED).map((doc, i) => ({ ...doc, text: `${doc.text} Revised note zqrevision${i}.` }));
  const kept = [...changed, ...docs.slice(CHANGED, docs.length - REMOVED)];
  const secondSource = run.path === 's3' ? await putObjects(run, kept, true) : await buildArchive(run, kept);
  const second = await run.timed(`re-import: ${CHANGED} changed, ${REMOVED} removed, searchable`, async () => {
    const counts = await importDocs(run, secondSource, memory.id, true);
    await searchable(run.api, memory.id, kept.length, `zqrevision${CHANGED - 1}`);
    return counts;
  });
  await run.timed('  then memory ready', () => ready(run.api, memory.id));
  return { first, second };
}

/** A source ready to import: objects under an S3 prefix, or an archive's bytes (built before the clock, as a user's is). */
export type BulkSource = { s3: { bucket: string; prefix: string } } | { archive: { name: string; bytes: Buffer } };

/** Imports the prefix, or uploads the archive and imports it, and waits for the import to end. */
export async function importDocs(run: BulkRun, source: BulkSource, memoryID: string, prune: boolean): Promise<ImportCounts> {
  const from = 's3' in source ? { s3: source.s3 } : { archiveKey: await uploadArchive(run, source.archive) };
  const started = (await run.api.post('/files/import', { ...from, memoryID, prune })).data as { importID: string };
  for (;;) {
    const status = (await run.api.get(`/files/import/${started.importID}`)).data as ImportCounts & { state: string; errors: unknown[] };
    if (status.state === 'failed') throw new Error(`import failed: ${JSON.stringify(status.errors.slice(0, 3))}`);
    if (status.state === 'completed') return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The documents as one .zip, a `.txt` member each under the run's folder. */
export async function buildArchive(run: Pick<BulkRun, 'folder'>, docs: BulkDoc[]): Promise<BulkSource> {
  const zip = new ZipFile();
  const folder = run.folder ?? 'scifact';
  for (const doc of docs) zip.addBuffer(Buffer.from(body(doc)), `${folder}/${doc._id}.txt`);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return { archive: { name: `${folder}.zip`, bytes: Buffer.concat(chunks) } };
}

async function uploadArchive(run: BulkRun, archive: { name: string; bytes: Buffer }): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([archive.bytes], { type: 'application/zip' }), archive.name);
  const sent = await fetch(`${run.url}/files/upload`, { method: 'POST', headers: { 'X-API-Key': run.apiKey }, body: form });
  if (!sent.ok) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
  return ((await sent.json()) as { data: { key: string } }).data.key;
}

let s3: S3Client | undefined;
/** The local bucket the S3 path reads (the bench's runtime lists it, and gives the bench account all of it). */
export const BULK_BUCKET = 'bench-corpus';
const PREFIX = 'scifact/';
let stored = new Set<string>();

/** Writes the documents as objects under one prefix; on a re-sync only the new or changed ones, and deletes the rest. */
async function putObjects(run: BulkRun, docs: BulkDoc[], resync: boolean): Promise<BulkSource> {
  s3 ??= new S3Client({
    endpoint: run.s3Endpoint,
    region: 'local',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const client = s3;
  if (!resync) await client.send(new CreateBucketCommand({ Bucket: BULK_BUCKET }));
  const wanted = new Map(docs.map((doc) => [`${PREFIX}${doc._id}.txt`, body(doc)]));
  const writes = [...wanted].filter(([key, text]) => !resync || !stored.has(`${key}\n${text}`));
  await inParallel(writes.length, 16, (i) =>
    client.send(new PutObjectCommand({ Bucket: BULK_BUCKET, Key: writes[i]![0], Body: writes[i]![1] })),
  );
  const gone = [...stored].map((entry) => entry.split('\n')[0] ?? '').filter((key) => !wanted.has(key));
  await inParallel(gone.length, 16, (i) => client.send(new DeleteObjectCommand({ Bucket: BULK_BUCKET, Key: gone[i] })));
  stored = new Set([...wanted].map(([key, text]) => `${key}\n${text}`));
  return { s3: { bucket: BULK_BUCKET, prefix: PREFIX } };
}

/** Waits until the memory's index holds `files` files and a search finds `probe`. */
async function searchable(api: ApiClient, memoryId: string, files: number, probe: string): Promise<void> {
  for (;;) {
    const got = (await api.get(`/memories/get/${memoryId}`)).data as { step: string; fileCount: number };
    if (got.step === 'failed') throw new Error('ingestion failed');
    if (got.fileCount === files) {
      const hits = (await api.get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(probe)}&topK=3`)) as {
        payload?: Array<{ content: string }>;
      };
      if (JSON.stringify(hits.payload ?? []).includes(probe.split(' ')[0] ?? probe)) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the memory is `ready` (its ingestion ended). */
async function ready(api: ApiClient, memoryId: string): Promise<void> {
  for (;;) {
    const got = (await api.get(`/memories/get/${memoryId}`)).data as { step: string };
    if (got.step === 'failed') throw new Error('ingestion failed');
    if (got.step === 'ready') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
