/**
 * The `messages.sync` work: an account's message index, what `GET /messages/search` ranks over, holds
 * every live message of the account as a chunk with its context (conversation-chunks.ts), built with the same
 * retrieval engine as memories. Changes are recorded as pending before their message is sent and built
 * one build at a time per account (conversation-sync.ts), so search never reads the account's messages.
 *
 * The index is a manifest of immutable segments, as a memory's (docs/segments.md, "The account's message
 * index"): a build writes one new segment holding only the changed sessions' live messages, marks their
 * chunks in the current segments deleted (tombstones by ordinal, from each segment's source table) and
 * publishes the manifest by the conditional write of the account's pointer. A version written before
 * segments (one folder holding `chunks.json` and `retrieval.idx`) reads as one segment; the next build
 * converts it (one whole new segment, once). Merges run as `messages.merge` (message-merge.ts).
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
  MessageIndexPointer,
  MessageIndexStore,
  ObjectStore,
  PendingSync,
} from '../ports';
import type { MessageStore, SessionStore } from '../conversations/ports';
import { buildRetrievalIndex, type Embedder } from '../../engine';
import type { WorkMessage } from '../work';
import type { StoredChunk } from '../stored-index/chunks';
import { encodeManifest, type IndexManifest, nameOf, readManifest, type SegmentEntry } from '../stored-index/manifest';
import { ERASED_MARK } from '../stored-index/message-index-sync';
import { writeSegment } from '../stored-index/segments';
import { INDEX_FILES } from '../stored-index/index-files';
import { buildWhileHolding, messagesOf } from './conversation-sync';
import { toRetrievalChunk } from './index-build';
import { accelerated, type MessageVersion, publishMessageVersion } from './message-index-publish';
import { queueRetirement, type RetireQueueDeps } from './retire-builds';
import { conversationChunks } from './conversation-chunks';
import { emitMetric } from '../metrics';
import { EVERY_SOURCE, planVersion } from './segment-plan';
import { messageTierOwner, type NewSegment, placeVectors } from './vector-placement';
import type { VectorTierSetup } from '../vector-tier/ports';

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
  /** The vector tier, when the stage turns it on: a large account's message vectors live there (docs/scale.md). */
  vectors?: VectorTierSetup;
}

const PUBLISH_TRIES = 5;

export function syncMessageIndex(deps: MessageIndexDeps, work: MessagesSync, holder: string): Promise<number> {
  const target = { store: deps.messageIndexSync, accountId: work.accountId, target: work.accountId };
  return buildWhileHolding(deps.clock, target, holder, async (pending) => {
    await buildMessageIndex(deps, work.accountId, pending);
    return true;
  });
}

/** What a build changes: each pending session's chunks (none: deleted), and whether messages were deleted. */
interface MessageChanges {
  added: ReadonlyMap<string, readonly StoredChunk[]>;
  erasing: boolean;
}

/** A written, unpublished version, with what publishing it must do after. */
interface MessageBuild extends MessageVersion {
  /** It tombstones text of deleted messages or sessions. */
  dropsText: boolean;
}

/** Publishes the next version: each pending session's chunks replaced by its live messages, in a new segment. */
async function buildMessageIndex(deps: MessageIndexDeps, accountId: string, pending: PendingSync): Promise<MessageBuild | undefined> {
  const changes = await changesOf(deps, accountId, pending);
  if (!changes) return undefined;
  for (let attempt = 1; ; attempt++) {
    const build = await buildOnce(deps, accountId, changes);
    if (build) return build;
    if (attempt >= PUBLISH_TRIES) throw new ConflictError(`the message index of account '${accountId}' kept changing`);
  }
}

/** One build from the current version, published; undefined when another version was published first. */
async function buildOnce(deps: MessageIndexDeps, accountId: string, changes: MessageChanges): Promise<MessageBuild | undefined> {
  const pointer = await deps.messageIndexes.get(accountId);
  const manifest = pointer ? await readManifest(deps.objects, objectKeys.messageIndexRoot(accountId), pointer.prefix) : undefined;
  if (pointer && !manifest) return undefined; // replaced and collected meanwhile: read it again
  const build = await writeVersion(deps, accountId, { pointer, manifest }, changes).catch(lostRace(deps, accountId, pointer));
  if (!build || !(await publishMessageVersion(deps, accountId, build, { pointer, manifest }))) return undefined;
  // text of deleted messages left out with whole segments: retire the versions naming them (a purge merge retires after it publishes)
  if (build.dropsText && !build.manifest.segments.some((entry) => entry.purge))
    await queueRetirement(deps, { accountId, version: build.version, prefix: build.prefix });
  return build;
}

/** The pending sessions' live chunks, and whether a deletion is pending; undefined when no session is. */
async function changesOf(deps: MessageIndexDeps, accountId: string, pending: PendingSync): Promise<MessageChanges | undefined> {
  const sessionIds = [...pending.sessions.keys()].filter((id) => id !== ERASED_MARK);
  if (sessionIds.length === 0) return undefined;
  const fresh = await mapConcurrently(sessionIds, 4, (id) => liveChunks(deps, accountId, id));
  return { added: new Map(sessionIds.map((id, i) => [sessionSourceId(id), fresh[i] ?? []])), erasing: pending.sessions.has(ERASED_MARK) };
}

/** A failed build whose starting version was replaced meanwhile (its segments collected) lost the race: undefined, to start again. */
function lostRace(deps: MessageIndexDeps, accountId: string, started: MessageIndexPointer | undefined) {
  return async (error: unknown): Promise<undefined> => {
    if ((await deps.messageIndexes.get(accountId))?.version === started?.version) throw error;
    return undefined;
  };
}

/** Writes the next version's new segment and manifest under fresh folders, from the version `current`. */
async function writeVersion(
  deps: MessageIndexDeps,
  accountId: string,
  current: { pointer: MessageIndexPointer | undefined; manifest: IndexManifest | undefined },
  changes: MessageChanges,
): Promise<MessageBuild> {
  const root = objectKeys.messageIndexRoot(accountId);
  const embedder = deps.indexing.embedder();
  const scope = {
    linked: EVERY_SOURCE,
    excluded: new Set<string>(),
    embedder: embedder?.name ?? null,
    keepReplacedVectors: false,
    ...changes,
  };
  const plan = await planVersion(deps.objects, root, current.manifest, scope);
  const version = (current.pointer?.version ?? 0) + 1;
  const prefix = objectKeys.messageIndexPrefix(accountId, version, deps.ids.uuid());
  const segments: SegmentEntry[] = [...plan.kept];
  const folders = [prefix];
  let bytes = 0;
  let added: NewSegment | undefined;
  if (plan.segmentChunks.length > 0) {
    const segmentPrefix = objectKeys.messageIndexSegmentPrefix(accountId, version, deps.ids.uuid());
    folders.push(segmentPrefix);
    const retrieval = await buildRetrievalIndex(plan.segmentChunks.map(toRetrievalChunk), {
      ...(embedder ? { embedder } : {}),
      acceleration: accelerated(plan.chunkCount),
      ...(plan.previous ? { previous: plan.previous } : {}), // a whole build keeps the old vectors of unchanged messages
    });
    bytes += await writeSegment(deps.objects, segmentPrefix, plan.segmentChunks, retrieval);
    added = { id: nameOf(root, segmentPrefix), retrieval, chunks: plan.segmentChunks };
    segments.push({ id: added.id, chunks: plan.segmentChunks.length, deleted: [], embedder: retrieval.embedder });
  }
  const owner = messageTierOwner(accountId, current.pointer?.version ?? 0);
  const vectorTier = await placeVectors(deps, owner, { current: current.manifest, kept: plan.kept, added, chunkCount: plan.chunkCount });
  const manifest: IndexManifest = { format: 1, segments, ...(vectorTier ? { vectorTier } : {}) };
  const encoded = encodeManifest(manifest);
  await deps.objects.put(prefix + INDEX_FILES.manifest, encoded, 'application/json');
  bytes += Buffer.byteLength(encoded);
  emitMetric('IndexBytes', bytes, { dimension: 'messages', properties: { accountId, chunks: plan.segmentChunks.length } });
  const tierSegment = vectorTier && added ? { id: added.id, chunks: added.chunks.length } : undefined;
  return { version, prefix, manifest, folders, dropsText: plan.dropsText, ...(tierSegment ? { tierSegment } : {}) };
}

/** A session's messages as chunks when the session is live; none when it is deleted or gone. */
async function liveChunks(deps: MessageIndexDeps, accountId: string, sessionId: string): Promise<StoredChunk[]> {
  const session = await deps.sessions.get(accountId, sessionId);
  if (!session || session.deletedAt) return [];
  return conversationChunks(await messagesOf(deps, accountId, sessionId));
}
