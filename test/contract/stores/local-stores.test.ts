/** The store contracts on the DynamoDB and S3 adapters, over the test runtime's dynalite and s3rver (end-to-end tier). */
import { BucketAlreadyOwnedByYou, CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, describe } from 'vitest';
import { createContainer } from '../../../functions/adapters/container';
import { LocalQueue } from '../../../functions/adapters/queue/local-queue';
import { testConfig } from '../../support/stores';
import { storeContracts } from './contracts';

const config = testConfig();
const container = createContainer(config, new LocalQueue({ directory: config.queue.kind === 'local' ? config.queue.directory : '' }));
afterAll(() => container.documentClient.destroy());

describe('DynamoDB and S3 stores', () => {
  storeContracts(
    // one container's stores, as a function's: the API key cache and the request counter's batches live in it
    () => container,
    async (name) => {
      try {
        await container.s3.send(new CreateBucketCommand({ Bucket: name }));
      } catch (error) {
        if (!(error instanceof BucketAlreadyOwnedByYou) && (error as { name?: string }).name !== 'BucketAlreadyExists') throw error;
      }
    },
  );
});
