/**
 * The extraction thread: runs extractText for one file at a time under the memory limit its parent
 * gave it (worker_threads resourceLimits), with the engines the settings it was given choose. Loaded by entry.mjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createS3Client } from '../aws-clients';
import { closeExtractDeps, createExtractDeps } from '../content/extract-deps';
import { ExtractionError, extractText } from '../extract';
import { describeError } from '../wording';
import type { SandboxData, SandboxReply, SandboxRequest } from './protocol';

const port = parentPort;
if (!port) throw new Error('the extraction thread runs as a worker thread');
const { config } = workerData as SandboxData;
const deps = createExtractDeps(config, createS3Client(config));
const reply = (message: SandboxReply): void => port.postMessage(message);

port.on('message', (request: SandboxRequest) => {
  if (request.kind === 'close') {
    void closeExtractDeps(deps).finally(() => reply({ kind: 'closed' }));
    return;
  }
  const { id, input } = request;
  extractText(input, deps).then(
    (extracted) => reply({ kind: 'extracted', id, extracted }),
    (error: unknown) => {
      const known = error instanceof ExtractionError ? error : undefined;
      const message = known ? known.message : `the file could not be read: ${describeError(error)}`;
      reply({ kind: 'failed', id, message, retryable: known?.retryable ?? false, refused: known?.refused ?? false });
    },
  );
});
reply({ kind: 'ready' });
