/**
 * The local stores' own thread: dynalite (DynamoDB API, LevelDB on disk) and s3rver (S3 API, files on
 * disk) serve from here, so their work runs on the second core beside the handlers' event loop, still
 * inside the runtime's one process. Plain JavaScript because Node loads a worker thread's entry itself,
 * without the TypeScript loader the runtime runs under; stores.ts is its typed front.
 *
 * workerData: {dynamoDir, s3Dir, host, bucketName}. Posts {kind: 'ready', dynamoPort, s3Port} or
 * {kind: 'failed', message}; on {kind: 'close'} closes both servers and posts {kind: 'closed'}; on
 * {kind: 'requests'} posts {kind: 'requests', counts}: the requests served so far by operation
 * (`DynamoDB PutItem`, `S3 GET`, ...), for benchmarks that count store round trips.
 */
import crypto from 'node:crypto';
import { rmdir, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import FilesystemStore from 's3rver/lib/stores/filesystem.js';

serveSingleDes();
removeEmptyFoldersWithoutListing();
readLevelInThread();

const { dynamoDir, s3Dir, host, bucketName } = workerData;

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(server.address().port));
  });
}

function closeServer(server) {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function start() {
  const dynamo = dynalite({ path: dynamoDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const dynamoPort = await listen(dynamo);
  const s3 = new S3rver({
    address: host,
    port: 0,
    directory: s3Dir,
    silent: true,
    // no CORS yet: once the API listens, the runtime allows its own origin only (stores.ts allowUploadsFrom)
    configureBuckets: [{ name: bucketName, configs: [] }],
  });
  let s3Port;
  try {
    s3Port = (await s3.run()).port;
  } catch (error) {
    await closeServer(dynamo);
    throw error;
  }
  const counts = countRequests(dynamo, s3.httpServer);
  parentPort.on('message', async (message) => {
    if (message?.kind === 'requests') parentPort.postMessage({ kind: 'requests', counts: Object.fromEntries(counts) });
    if (message?.kind !== 'close') return;
    s3.httpServer?.closeAllConnections();
    await Promise.allSettled([s3.close(), closeServer(dynamo)]);
    parentPort.postMessage({ kind: 'closed' });
  });
  parentPort.postMessage({ kind: 'ready', dynamoPort, s3Port });
}

/**
 * s3rver 3.7 seals a listing's continuation token with single DES ('des', DES-CBC), which OpenSSL 3 (Node
 * 17+) only has in its legacy provider: every ListObjectsV2 with more than 1,000 keys, the only kind that
 * needs a token, answered InternalError (ERR_OSSL_EVP_UNSUPPORTED). Triple DES in EDE mode with one key
 * three times is single DES, block for block, and is in the default provider; this thread's `crypto`
 * (a worker thread has its own) serves 'des' so, and the tokens s3rver makes and reads stay the same.
 */
function serveSingleDes() {
  const asTripleDes = (make) => (algorithm, key, iv, options) =>
    String(algorithm).toLowerCase() === 'des' && Buffer.byteLength(key) === 8
      ? make('des-ede3-cbc', Buffer.concat([key, key, key]), iv, options)
      : make(algorithm, key, iv, options);
  crypto.createCipheriv = asTripleDes(crypto.createCipheriv.bind(crypto));
  crypto.createDecipheriv = asTripleDes(crypto.createDecipheriv.bind(crypto));
}

/**
 * s3rver 3.7 deletes an object's three files, then walks up its key's folders, listing each one
 * (`readdirSync`) and removing it while it is empty. Listing a folder of thousands of objects (a memory's
 * chunk artefacts, the account's files) on every delete blocked this thread for milliseconds a key: pruning
 * 50 files of a 5,000-file import spent a second in it. Removing a folder fails by itself when it is not
 * empty, so the walk tries `rmdir` and stops at the first folder still in use (or already gone): the same
 * folders go, with no listing.
 */
function removeEmptyFoldersWithoutListing() {
  FilesystemStore.prototype.deleteObject = async function deleteObject(bucket, key) {
    const resources = ['object', 'object.md5', 'metadata.json'].map((resource) => this.getResourcePath(bucket, key, resource));
    await Promise.all(resources.map((file) => unlink(file).catch((error) => ignore(error, 'ENOENT'))));
    const parts = key.split('/');
    parts.pop(); // the last part is the object's file name, not a folder
    for (; parts.length; parts.pop()) {
      const removed = await rmdir(path.join(this.getBucketPath(bucket), ...parts)).then(
        () => true,
        (error) => ignore(error, 'ENOTEMPTY', 'EEXIST', 'ENOENT'),
      );
      if (!removed) return;
    }
  };
}

/**
 * dynalite reads every item (and its table's description) with LevelDB's asynchronous get, which hands
 * each read to libuv's thread pool and back: for the two or three reads of a small request that is most
 * of this thread's CPU (waking a pool thread and being woken costs far more than a read that LevelDB
 * answers from its cache, the usual case). Reads here are answered on this thread instead, through the
 * same LevelDB handle (classic-level's getSync): the same values, with no hand-off. This thread serves
 * the stores alone, so a read that goes to disk holds only the stores, briefly.
 */
function readLevelInThread() {
  const { Level } = createRequire(createRequire(import.meta.url).resolve('dynalite'))('level');
  const asynchronous = Level.prototype._get;
  if (typeof Level.prototype._getSync !== 'function') return;
  Level.prototype._get = async function get(key, options) {
    return options?.snapshot ? asynchronous.call(this, key, options) : this._getSync(key, options);
  };
}

/** False for an error with one of `codes`; throws any other. */
function ignore(error, ...codes) {
  if (codes.includes(error?.code)) return false;
  throw error;
}

/** Requests served, by DynamoDB operation (its X-Amz-Target) or S3 method; a list of keys is `S3 LIST`. */
function countRequests(dynamo, s3) {
  const counts = new Map();
  const bump = (name) => counts.set(name, (counts.get(name) ?? 0) + 1);
  dynamo.on('request', (request) =>
    bump(
      `DynamoDB ${String(request.headers['x-amz-target'] ?? '')
        .split('.')
        .pop()}`,
    ),
  );
  s3.on('request', (request) => bump(/[?&]list-type=/.test(request.url ?? '') ? 'S3 LIST' : `S3 ${request.method}`));
  return counts;
}

start().catch((error) => parentPort.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }));
