/** The Textract OCR adapter against a local server speaking Textract's JSON protocol. */
import { TextractClient } from '@aws-sdk/client-textract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTextractOcr, type ExtractDeps, ExtractionError, extractText } from '../../functions/adapters/extract';
import { fixture, input, unusedSpeech } from './support/deps';
import { startFakeAws, type FakeAws, type JsonReply } from './support/fake-aws';
import { ffmpegMake } from './support/media';

let server: FakeAws;
let reply: (input: Record<string, unknown>) => JsonReply;
let deps: ExtractDeps;

beforeAll(async () => {
  server = await startFakeAws((target, body) => {
    if (target !== 'Textract.DetectDocumentText') return { status: 400, body: { __type: 'UnknownOperationException' } };
    return reply(body);
  });
  const client = new TextractClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  deps = { ocr: createTextractOcr({ client }), speech: unusedSpeech };
});

afterAll(async () => {
  await server.close();
});

const lines = (...texts: string[]): JsonReply => ({
  body: {
    DocumentMetadata: { Pages: 1 },
    Blocks: [
      { BlockType: 'PAGE', Id: 'p' },
      ...texts.map((text, index) => ({ BlockType: 'LINE', Id: `l${index}`, Text: text, Confidence: 99.1 })),
      { BlockType: 'WORD', Id: 'w', Text: 'ignored-word-block', Confidence: 99 },
    ],
  },
});

describe('Amazon Textract adapter', () => {
  it('sends the image bytes and joins the LINE blocks', async () => {
    const png = fixture('ocr-text.png');
    reply = () => lines('Knowledge memory stores facts', 'Invoice number 4821 is overdue');
    const result = await extractText(input(png, 'image', 'scan.png'), deps);
    expect(result).toEqual({
      text: 'Knowledge memory stores facts\nInvoice number 4821 is overdue',
      kind: 'image',
      warnings: [],
    });
    const sent = server.calls.at(-1)?.input as { Document: { Bytes: string } };
    expect(Buffer.from(sent.Document.Bytes, 'base64').equals(Buffer.from(png))).toBe(true);
  });

  it('converts formats Textract does not read (GIF) to PNG before sending', async () => {
    const gif = await ffmpegMake(['-i', '{in}', '{out}'], 'image.gif', fixture('ocr-text.png'));
    reply = () => lines('converted');
    await extractText(input(gif, 'image', 'image.gif'), deps);
    const sent = server.calls.at(-1)?.input as { Document: { Bytes: string } };
    expect(Buffer.from(sent.Document.Bytes, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('reports a rejected image as bad content, not to be retried', async () => {
    reply = () => ({
      status: 400,
      body: { __type: 'UnsupportedDocumentException', message: 'Request has unsupported document format' },
    });
    const error = await extractText(input(fixture('ocr-text.png'), 'image'), deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as ExtractionError).message).toMatch(/Amazon Textract could not read the image \(UnsupportedDocumentException\)/);
    expect((error as ExtractionError).retryable).toBe(false);
  });

  it('marks throttling as retryable', async () => {
    reply = () => ({ status: 400, body: { __type: 'ProvisionedThroughputExceededException', message: 'slow down' } });
    const error = await extractText(input(fixture('ocr-text.png'), 'image'), deps).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as ExtractionError).retryable).toBe(true);
    expect((error as ExtractionError).message).toMatch(
      /^Amazon Textract failed to read the image \(ProvisionedThroughputExceededException, HTTP 400\): slow down \(a temporary failure/,
    );
  });

  it('fails when Textract finds no text', async () => {
    reply = () => lines();
    const error = await extractText(input(fixture('ocr-text.png'), 'image'), deps).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('no text was recognised in the image');
  });
});
