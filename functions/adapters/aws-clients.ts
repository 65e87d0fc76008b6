/**
 * AWS SDK clients, created once per container. On the local runtime they point at dynalite, s3rver
 * and carry the local servers' static credentials; on AWS they use the function's role.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../config';

/** The keep-alive HTTP handler every SDK client of a container uses. */
export const requestHandler = (): NodeHttpHandler =>
  new NodeHttpHandler({
    httpAgent: new HttpAgent({ keepAlive: true, maxSockets: 64 }),
    httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 64 }),
    connectionTimeout: 2_000,
    requestTimeout: 10_000,
  });

/**
 * Drops the SDK's logger middleware: with no logger configured it still copies every input and output
 * through the sensitive-data filters for a no-op logger (a few percent of a busy local runtime's CPU).
 */
export function withoutSdkLogging<C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

export function createDocumentClient(config: Config): DynamoDBDocumentClient {
  const client = withoutSdkLogging(
    new DynamoDBClient({
      region: config.region,
      requestHandler: requestHandler(),
      ...(config.dynamodbEndpoint
        ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    }),
  );
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function createS3Client(config: Config): S3Client {
  return withoutSdkLogging(
    new S3Client({
      region: config.region,
      requestHandler: requestHandler(),
      ...(config.s3Endpoint
        ? {
            endpoint: config.s3Endpoint,
            forcePathStyle: true,
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
            // s3rver stores streamed uploads corrupted when the SDK adds its default checksums
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
          }
        : {}),
    }),
  );
}

/**
 * The client that signs upload addresses: it adds no flexible checksum, which the SDK would otherwise
 * compute over the empty body at signing time and S3 would then compare with the bytes the caller PUTs.
 */
export function createS3PresignClient(config: Config): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.s3Endpoint
      ? { endpoint: config.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }
      : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createSqsClient(config: Config): SQSClient {
  return withoutSdkLogging(new SQSClient({ region: config.region, requestHandler: requestHandler() }));
}
