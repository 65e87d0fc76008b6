/**
 * Extraction in its own thread: a file that needs more memory or time than allowed fails with a reason
 * and is not retryable; the thread is replaced and the next file extracts as usual.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ExtractionError } from '../../functions/adapters/extract';
import { loadConfig } from '../../functions/config';
import { ExtractionSandbox } from '../../functions/adapters/sandbox/extraction-sandbox';
import { largeHtml } from '../support/hostile-files';

const sandboxes: ExtractionSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

function sandbox(memoryMb: number, timeoutMs: number): ExtractionSandbox {
  const created = new ExtractionSandbox({ memoryMb, timeoutMs, config: loadConfig({}) });
  sandboxes.push(created);
  return created;
}

const html = (text: string) => ({
  bytes: new TextEncoder().encode(text),
  fileType: 'text' as const,
  name: 'page.html',
  contentType: 'text/html',
});

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ExtractionError);
  expect((error as ExtractionError).retryable).toBe(false);
  return error as ExtractionError;
}

describe('ExtractionSandbox', () => {
  it('extracts in its thread, and passes a file failure on with its reason', async () => {
    const box = sandbox(256, 60_000);
    const page = await box.extract(html('<html><head><title>Hi</title></head><body><p>hello from the thread</p></body></html>'));
    expect(page).toMatchObject({ kind: 'html', title: 'Hi', text: 'hello from the thread' });
    const empty = await failure(box.extract(html('<html><body></body></html>')));
    expect(empty.message).toBe('the HTML page contains no text');
  });

  it('stops a file that runs past the time limit, then extracts the next one', async () => {
    // the limit's clock starts once the thread has loaded its modules: the next small page takes milliseconds,
    // while the large one runs far past it (a megabyte of such paragraphs was not done after 120 s), burning CPU until stopped
    const box = sandbox(512, 2_000);
    const slow = await failure(box.extract(html(largeHtml(3))));
    expect(slow.message).toBe('extracting the file took longer than 2 s, the limit: it was stopped');
    const next = await box.extract(html('<html><body><p>after the slow one</p></body></html>'));
    expect(next.text).toBe('after the slow one');
  });

  it('stops a file that needs more memory than the limit, then extracts the next one', async () => {
    const box = sandbox(48, 120_000);
    const hungry = await failure(box.extract(html(largeHtml(4.5))));
    expect(hungry.message).toBe('extracting the file needed more than 48 MB of memory, the limit: it was stopped');
    const next = await box.extract(html('<html><body><p>after the hungry one</p></body></html>'));
    expect(next.text).toBe('after the hungry one');
  });
});
