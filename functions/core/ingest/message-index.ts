/**
 * The `messages.sync` work: an account's message index, what `GET /messages/search` ranks over, holds
 * every live message of the account as a chunk with its context (conversation-chunks.ts), built with the same
 * retrieval engine as memories. Changes are recorded as pending before their message is sent and built
 * one build at a time per account (conversation-sync.ts), so search never reads the account's messages.
 */
import { mapConcurrently } from '../concurrency';
import { ConflictError } from '../errors';
import { sessionSourceId } from '../model';
import { objectKeys } from '../object-keys';
import type {
  QueuePort,
  Clock,
  ConversationSyncStore,
  IdGenerator,
  MessageIndexStore,
  MessageStore,
  ObjectStore,
  PendingSync,
  SessionStore,
} from '../ports';
import { buildRetrievalIndex, type Embedder, serializeRetrievalIndex } from '../../engine';
import type { WorkMessage } from '../work';
import { decodeChunks, encodeChunks, type StoredChunk } from '../stored-index/chunks';
import { buildWhileHolding, messagesOf } from './conversation-sync';
import { toRetrievalChunk } from './index-build';
import { INDEX_FILES } from '../stored-index/index-files';
import { dropsText, queueRetirement, type RetireQueueDeps } from './retire-builds';
import { conversationChunks } from './conversation-chunks';

type MessagesSync = Extract<WorkMessage, { kind: 'messages.sync' }>;

export interface MessageIndexDeps {
  sessions: SessionStore;
  messages: MessageStore;
  messageIndexes: MessageIndexStore;
  messageIndexSync: ConversationSyncStore;
  objects: ObjectStore;
  ids: IdGenerator;
  clock: Clock;
  indexing: { embedder: () => Embedder | null };
  queue: QueuePort;
  config: RetireQueueDeps['config'];
}

const PUBLISH_TRIES = 3;
/** Above this many messages the index carries an HNSW graph (searches stay fast on large accounts). */
const ACCELERATE_FROM = 20_000;

export function syncMessageIndex(deps: MessageIndexDeps, work: MessagesSync, holder: string): Promise<number> {
  const target = { store: deps.messageIndexSync, accountId: work.accountId, target: work.accountId };
  return buildWhileHolding(deps.clock, target, holder, async (pending) => {
    await buildMessageIndex(deps, work.accountId, pending);
    return true;
  });
}

/** Publishes the next version: the previous one's chunks, with each pending session's replaced by its live messages. */
async function buildMessageIndex(deps: MessageIndexDeps, accountId: string, pending: PendingSync): Promise<void> {
  const sessionIds = [...pending.sessions.keys()];
  const fresh = (await mapConcurrently(sessionIds, 4, (id) => liveChunks(deps, accountId, id))).flat();
  const changed = new Set(sessionIds.map(sessionSourceId));
  for (let attempt = 1; ; attempt++) {
    const pointer = await deps.messageIndexes.get(accountId);
    const previous = pointer ? decodeChunks(await deps.objects.get(pointer.prefix + INDEX_FILES.chunks)) : [];
    const kept = previous.filter((chunk) => !changed.has(chunk.fileId));
    const chunks = [...kept, ...fresh];
    const version = (pointer?.version ?? 0) + 1;
    const prefix = objectKeys.messageIndexPrefix(accountId, version, deps.ids.uuid());
    const embedder = deps.indexing.embedder();
    const retrieval = await buildRetrievalIndex(chunks.map(toRetrievalChunk), {
      ...(embedder ? { embedder } : {}),
      acceleration: chunks.length >= ACCELERATE_FROM,
    });
    await deps.objects.put(prefix + INDEX_FILES.chunks, encodeChunks(chunks), 'application/json');
    await deps.objects.put(prefix + INDEX_FILES.retrieval, serializeRetrievalIndex(retrieval));
    if (await deps.messageIndexes.publish(accountId, pointer?.version ?? 0, { version, prefix })) {
      await dropOldBuilds(deps, accountId, version, pointer?.prefix);
      if (dropsText(previous, chunks)) await queueRetirement(deps, { accountId, version }); // deleted or changed messages
      return;
    }
    await deps.objects.deletePrefix(prefix); // another build published first
    if (attempt >= PUBLISH_TRIES) throw new ConflictError(`the message index of account '${accountId}' kept changing`);
  }
}

/** A session's messages as chunks when the session is live; none when it is deleted or gone. */
async function liveChunks(deps: MessageIndexDeps, accountId: string, sessionId: string): Promise<StoredChunk[]> {
  const session = await deps.sessions.get(accountId, sessionId);
  if (!session || session.deletedAt) return [];
  return conversationChunks(await messagesOf(deps, accountId, sessionId));
}

/** Keeps the published build and the one before it (a warm reader may still load it); older ones go. */
async function dropOldBuilds(
  deps: MessageIndexDeps,
  accountId: string,
  version: number,
  previousPrefix: string | undefined,
): Promise<void> {
  const root = objectKeys.messageIndexRoot(accountId);
  const builds = new Set((await deps.objects.list(root)).map((key) => key.slice(0, key.indexOf('/', root.length) + 1)));
  for (const build of builds) {
    const built = Number(/^v(\d+)-/.exec(build.slice(root.length))?.[1] ?? NaN);
    if (Number.isInteger(built) && built < version && build !== previousPrefix) await deps.objects.deletePrefix(build);
  }
}
