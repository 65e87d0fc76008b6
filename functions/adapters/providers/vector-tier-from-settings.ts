/**
 * Vector tier settings to the tier: none for `resident` (vectors stay in the memory's segments), Amazon S3
 * Vectors for `s3vectors`, its SDK client made here (callers make the tier `once` per container). Against
 * the local double (`endpoint` set) the client signs with static local credentials.
 */
import { S3VectorsClient } from '@aws-sdk/client-s3vectors';
import type { VectorTierSettings } from '../../config';
import type { VectorTier } from '../../core/vector-tier/ports';
import { requestHandler, withoutSdkLogging } from '../aws-clients';
import { S3VectorsTier } from '../s3vectors/s3vectors-tier';
import type { ProviderContext } from './once';

/** SDK attempts of one S3 Vectors call (throttling and server errors, with the SDK's backoff). */
const MAX_ATTEMPTS = 5;

export function vectorTierFromSettings(settings: VectorTierSettings, context: ProviderContext): VectorTier | undefined {
  if (settings.store === 'resident') return undefined;
  const client = withoutSdkLogging(
    new S3VectorsClient({
      region: context.region,
      requestHandler: requestHandler(),
      maxAttempts: MAX_ATTEMPTS,
      ...(settings.endpoint ? { endpoint: settings.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  return new S3VectorsTier(client, settings.bucketName);
}
