/**
 * Store access for command-line tools: a running local runtime's stores (found through runtime.json in
 * the data directory), the data directory's stores booted for the command, or a deployed stack's table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { localConfig, type Settings } from '../config';
import { composeLocalDeps, type LocalDeps } from './compose';
import { ensureTable, startStores } from './stores';

export interface StoreSession {
  deps: LocalDeps;
  where: string;
  close(): Promise<void>;
}

/** A deployed stack: its table, and its artefact bucket for the commands that touch objects. */
export type Target = { kind: 'local' } | { kind: 'aws'; tableName: string; region: string; bucketName?: string };

export async function openStores(target: Target): Promise<StoreSession> {
  if (target.kind === 'aws') {
    const bucket = target.bucketName ? { KMEM_BUCKET_NAME: target.bucketName } : {};
    const deps = composeLocalDeps(localConfig({ KMEM_TABLE_NAME: target.tableName, AWS_REGION: target.region, ...bucket }));
    const where = `table ${target.tableName}${target.bucketName ? ` and bucket ${target.bucketName}` : ''} in ${target.region}`;
    return { deps, where, close: async () => undefined };
  }
  const base = localConfig();
  const dataDir = resolve(base.dataDir);
  const running = runningRuntime(dataDir);
  if (running) {
    const deps = composeLocalDeps(localConfig(localSettings(dataDir, running)));
    return { deps, where: `the running local runtime (${dataDir})`, close: async () => undefined };
  }
  const stores = await startStores({ dataDir, bucketName: base.bucketName });
  const deps = composeLocalDeps(localConfig(localSettings(dataDir, stores)));
  await ensureTable(deps.documentClient, deps.config.tableName);
  return { deps, where: `local data in ${dataDir}`, close: () => stores.close() };
}

interface Endpoints {
  dynamodbEndpoint: string;
  s3Endpoint: string;
}

function localSettings(dataDir: string, endpoints: Endpoints): Settings {
  return {
    KMEM_DATA_DIR: dataDir,
    KMEM_DYNAMODB_ENDPOINT: endpoints.dynamodbEndpoint,
    KMEM_S3_ENDPOINT: endpoints.s3Endpoint,
    AWS_REGION: 'local',
  };
}

function runningRuntime(dataDir: string): Endpoints | undefined {
  const file = join(dataDir, 'runtime.json');
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as Endpoints & { pid: number };
  return isAlive(state.pid) ? state : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
