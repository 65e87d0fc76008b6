/**
 * Soak: on Lambda one hostile file fails alone. A DOCX within every limit (its word/document.xml under
 * the 256 MiB unzipped cap and the 100× ratio, the file under the 50 MB upload limit) needs about 40 times
 * its XML to extract. It goes through the worker's Lambda handler (functions/worker/handler.ts, its
 * exported `handler`, as Lambda calls it) in one batch with four honest files of another tenant, with the
 * environment the synthesized stack gives the worker function (read from the template; only the stores'
 * endpoints point at the test runtime, and the queue URL at an SQS double on 127.0.0.1). The DOCX must
 * fail with its reason, recorded on the file and not retried, and the other four records succeed.
 *
 * In the suite the DOCX is scaled down with the extraction memory limit: a 24 MiB document.xml (about 1 GB
 * to extract) against KMEM_EXTRACT_MEMORY_MB=256, the same code path (the extraction thread stopped at its
 * heap limit) at an eighth of the bytes. `SOAK_FULL=1` runs the deployed figures: a 36 MB DOCX (a 200 MiB
 * document.xml, about 8 GB to extract) against the template's limit. Figures (time, peak memory of this
 * process) are printed for the README.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createFile, uploadFile } from '../../functions/core/use-cases/files';
import { lambdaContext } from '../../functions/local/lambda-context';
import { handler } from '../../functions/worker/handler';
import { logicalId, synthesize } from '../infra/support/synth';
import { storeEnvironment, testDeps } from '../support/stores';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** `SOAK_FULL=1`: the deployed figures, a 200 MiB document.xml against the template's memory limit. */
const FULL = process.env.SOAK_FULL === '1';
const XML_BYTES = (FULL ? 200 : 24) * 1024 * 1024;
/** The extraction memory limit of the scaled-down run, about a quarter of the deployed one (1,002 MB). */
const SCALED_MEMORY_MB = '256';
const deps = testDeps();
const scratch = mkdtempSync(join(tmpdir(), 'kmem-lambda-extraction-'));
const savedEnv = { ...process.env };
/** What the SQS double was asked, by action (`AmazonSQS.SendMessage`, `AmazonSQS.ChangeMessageVisibility`). */
const sqsCalls: string[] = [];
let sqs: Server;
let workerEnv: Record<string, string>;
/** The worker function's timeout in the template, in ms: the Lambda context's remaining time. */
let workerTimeoutMs: number;

beforeAll(async () => {
  sqs = await sqsDouble();
  const queueUrl = `http://127.0.0.1:${(sqs.address() as AddressInfo).port}/000000000000/kmem-test-work`;
  ({ environment: workerEnv, timeoutMs: workerTimeoutMs } = deployedWorker());
  if (!FULL) workerEnv.KMEM_EXTRACT_MEMORY_MB = SCALED_MEMORY_MB;
  const stores = storeEnvironment();
  process.env = {
    ...savedEnv,
    ...workerEnv,
    AWS_LAMBDA_FUNCTION_NAME: 'kmem-test-worker',
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    KMEM_TABLE_NAME: deps.config.tableName,
    KMEM_BUCKET_NAME: deps.config.bucketName,
    KMEM_QUEUE_URL: queueUrl,
    KMEM_DYNAMODB_ENDPOINT: stores.KMEM_DYNAMODB_ENDPOINT,
    KMEM_S3_ENDPOINT: stores.KMEM_S3_ENDPOINT,
  };
}, 120_000);

afterAll(() => {
  process.env = savedEnv;
  sqs?.close();
  deps.documentClient.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

/** The worker function's environment in the synthesized template (its literal values: tokens are the stack's resources) and timeout. */
function deployedWorker(): { environment: Record<string, string>; timeoutMs: number } {
  const synth = synthesize();
  const worker = synth.stack.ingest.queueWorker.worker;
  if (!worker) throw new Error('the stack has no worker function');
  const resource = synth.template.toJSON().Resources[logicalId(synth.stack, worker.function)];
  const variables = resource.Properties.Environment.Variables as Record<string, unknown>;
  const environment = Object.fromEntries(
    Object.entries(variables).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  return { environment, timeoutMs: Number(resource.Properties.Timeout) * 1000 };
}

it('fails a DOCX over the extraction memory limit alone, with its reason and without a retry, while the other records of its batch succeed', async () => {
  const bytes = await hugeDocx();
  expect(bytes.length).toBeGreaterThan(XML_BYTES / 8); // 25 MB for the full 200 MiB
  expect(bytes.length).toBeLessThan(50 * 1024 * 1024); // fits the presigned upload
  expect(XML_BYTES / bytes.length).toBeLessThan(100); // under the ZIP ratio limit, and the XML under the 256 MiB cap

  const hostileAccount = (await createAccount(deps, `lambda-hostile-${process.pid}-${Date.now()}`)).account.id;
  const otherAccount = (await createAccount(deps, `lambda-other-${process.pid}-${Date.now()}`)).account.id;
  const upload = await uploadFile(deps, hostileAccount, { name: 'report.docx', contentType: DOCX, bytes });
  const hostile = await createFile(deps, hostileAccount, { name: 'report.docx', key: upload.key, fileType: 'document' });
  const honest = await Promise.all(
    ['tides', 'bees', 'ferries', 'orchards'].map(async (topic) => {
      const text = `Notes on ${topic}: they follow the seasons and the weather. `.repeat(20);
      const up = await uploadFile(deps, otherAccount, { name: `${topic}.txt`, contentType: 'text/plain', bytes: Buffer.from(text) });
      return createFile(deps, otherAccount, { name: `${topic}.txt`, key: up.key, fileType: 'text' });
    }),
  );
  const batch = await queuedBatch(5);

  const peak = sampleRss();
  const started = Date.now();
  const answer = await handler(batch, lambdaContext('worker', 'lambda-extraction', workerTimeoutMs));
  const seconds = (Date.now() - started) / 1000;
  const peakMb = peak.stop();

  const failed = await storedFile(hostileAccount, hostile.id);
  const others = await Promise.all(honest.map((file) => storedFile(otherAccount, file.id)));
  console.info(
    `[lambda-extraction] DOCX ${bytes.length} bytes (document.xml ${XML_BYTES}), KMEM_EXTRACT_ISOLATION=${workerEnv.KMEM_EXTRACT_ISOLATION}, ` +
      `KMEM_EXTRACT_MEMORY_MB=${workerEnv.KMEM_EXTRACT_MEMORY_MB}: batch of 5 in ${seconds.toFixed(1)} s, ` +
      `peak RSS of the process ${peakMb} MB; the DOCX: ${failed.state} "${failed.error}"`,
  );
  expect(answer.batchItemFailures).toEqual([]); // no record comes back: the DOCX's failure is recorded, not retried
  expect(sqsCalls.filter((call) => call.endsWith('ChangeMessageVisibility'))).toEqual([]);
  expect({ state: failed.state, error: failed.error }).toEqual({
    state: 'failed',
    error: expect.stringMatching(new RegExp(`needed more than ${workerEnv.KMEM_EXTRACT_MEMORY_MB} MB of memory, the limit`)),
  });
  expect(others.map((file) => `${file.name}: ${file.state} ${file.error ?? ''}`.trim())).toEqual(
    honest.map((file) => `${file.name}: ready`),
  );
  expect(seconds).toBeLessThan(300);
}, 600_000);

async function storedFile(accountId: string, id: string) {
  const file = await deps.files.get(accountId, id);
  if (!file) throw new Error(`file ${id} is gone`);
  return file;
}

/** A DOCX whose word/document.xml is XML_BYTES of varied prose (about 5.8 times its compressed size), streamed into the zip. */
async function hugeDocx(): Promise<Buffer> {
  const zip = new ZipFile();
  const part = (text: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${text}`);
  zip.addBuffer(
    part(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '[Content_Types].xml',
  );
  zip.addBuffer(
    part(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    '_rels/.rels',
  );
  zip.addReadStream(Readable.from(documentXml()), 'word/document.xml', { compress: true });
  zip.end();
  const path = join(scratch, 'report.docx');
  await pipeline(zip.outputStream, createWriteStream(path));
  return readFile(path);
}

/** word/document.xml, a paragraph at a time, exactly XML_BYTES long: words drawn from 64 made-up ones. */
function* documentXml(): Generator<Buffer> {
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
  const tail = '</w:body></w:document>';
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const letters = 'etaoinshrdlucmfwypvbgkjqxz';
  const words = Array.from({ length: 64 }, () =>
    Array.from({ length: 3 + (next() % 7) }, () => letters[next() % (next() % 2 ? 10 : 26)]).join(''),
  );
  yield Buffer.from(head);
  let left = XML_BYTES - head.length - tail.length;
  while (left > 0) {
    const lines: string[] = [];
    for (let i = 0; i < 500; i++) {
      const sentence = Array.from({ length: 12 }, () => words[next() % words.length]).join(' ');
      lines.push(`<w:p><w:r><w:t>${sentence}.</w:t></w:r></w:p>`);
    }
    const chunk = Buffer.from(lines.join(''));
    const piece = chunk.length <= left ? chunk : Buffer.alloc(left, ' '); // white space between paragraphs
    left -= piece.length;
    yield piece;
  }
  yield Buffer.from(tail);
}

/** The next `count` messages of the test's private queue as one SQS event. */
async function queuedBatch(count: number): Promise<SQSEvent> {
  const queue = deps.localQueue;
  const received = await queue.receive(count, 600);
  expect(received).toHaveLength(count);
  for (const message of received) await queue.delete(message.receiptHandle);
  return {
    Records: received.map((message) => ({
      messageId: message.messageId,
      receiptHandle: `handle-${message.messageId}`,
      body: message.body,
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:kmem-test-work',
      awsRegion: 'local',
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'TEST', ApproximateFirstReceiveTimestamp: '0' },
    })),
  };
}

/** SQS (JSON protocol) on 127.0.0.1: accepts SendMessage and ChangeMessageVisibility, recording each. */
async function sqsDouble(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '');
      sqsCalls.push(action);
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { MessageBody?: string };
      const answer = action.endsWith('SendMessage')
        ? {
            MessageId: `m-${sqsCalls.length}`,
            MD5OfMessageBody: createHash('md5')
              .update(body.MessageBody ?? '')
              .digest('hex'),
          }
        : {};
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The process's peak resident memory (MB) from now until `stop`, sampled every 100 ms. */
function sampleRss(): { stop: () => number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage.rss()) / (1024 * 1024));
    },
  };
}
