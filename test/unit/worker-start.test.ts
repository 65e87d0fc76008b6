/**
 * The worker starts without its heavy parts (functions/worker/deps.ts): the web reader with its HTML and
 * sitemap parsers, the document extractors, and the AWS SDK clients of services the local stage does not
 * call load at first use, not when the worker thread composes its deps (each load costs the thread's start,
 * which every local runtime, `npm start` and test run waits for).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const support = (name: string): string => fileURLToPath(new URL(`../support/${name}`, import.meta.url));

/** Packages a ready worker has not loaded: each is imported where it is first needed. */
const LOADED_AT_FIRST_USE = [
  'linkedom',
  '@mozilla/readability',
  'fast-xml-parser',
  'unpdf',
  'mammoth',
  'tesseract.js',
  '@aws-sdk/client-textract',
  '@aws-sdk/client-transcribe',
  '@aws-sdk/client-comprehend',
  '@aws-sdk/client-bedrock-runtime',
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/client-bedrock-agent-runtime',
];

describe('the worker at start', () => {
  it('has loaded none of its heavy parts, and loads the web reader at its first fetch', { timeout: 120_000 }, async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', support('loaded-packages.mjs'), '--import', 'tsx', support('worker-start-graph.ts')],
      {
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        timeout: 110_000,
      },
    );
    const { atReady, afterFetch, fetchError } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      atReady: string[];
      afterFetch: string[];
      fetchError: string;
    };
    // the recorder sees what the worker does load: its stores' clients
    expect(atReady).toEqual(expect.arrayContaining(['@aws-sdk/client-dynamodb', '@aws-sdk/client-s3']));
    expect(atReady.filter((name) => LOADED_AT_FIRST_USE.includes(name))).toEqual([]);
    expect(fetchError).toBe('FileProcessingError');
    expect(afterFetch).toEqual(expect.arrayContaining(['linkedom', '@mozilla/readability', 'fast-xml-parser']));
  });
});
