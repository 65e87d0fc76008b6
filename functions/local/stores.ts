/**
 * The local stores: dynalite (DynamoDB API, LevelDB on disk) and s3rver (S3 API, files on disk) on
 * loopback, with their data under the data directory so it survives restarts. Creates the table and
 * bucket on first start.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { GLOBAL_INDEXES, PARTITION_KEY, SORT_KEY } from '../adapters/dynamodb/table-definition';

export interface LocalStores {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  close(): Promise<void>;
}

export interface StoreOptions {
  dataDir: string;
  host: string;
  bucketName: string;
}

export async function startStores(options: StoreOptions): Promise<LocalStores> {
  const dynamoDir = join(options.dataDir, 'dynamodb');
  const s3Dir = join(options.dataDir, 's3');
  mkdirSync(dynamoDir, { recursive: true });
  mkdirSync(s3Dir, { recursive: true });

  const dynamo = dynalite({ path: dynamoDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const dynamoPort = await listen(dynamo, options.host);
  const s3 = new S3rver({
    address: options.host,
    port: 0,
    directory: s3Dir,
    silent: true,
    configureBuckets: [{ name: options.bucketName }],
  });
  let s3Address: AddressInfo;
  try {
    s3Address = await s3.run();
  } catch (error) {
    await close(dynamo);
    throw error;
  }
  return {
    dynamodbEndpoint: `http://${options.host}:${dynamoPort}`,
    s3Endpoint: `http://${options.host}:${s3Address.port}`,
    close: async () => {
      s3.httpServer?.closeAllConnections();
      await Promise.allSettled([s3.close(), close(dynamo)]);
    },
  };
}

/** Creates the single table with its indexes unless it exists. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return untilActive(client, tableName);
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = [PARTITION_KEY, SORT_KEY, ...GLOBAL_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
        { AttributeName: SORT_KEY, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await untilActive(client, tableName);
}

/** dynalite makes a new table ACTIVE on a timer; requests before that answer "resource not found". */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (described.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`table ${tableName} did not become active`);
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
