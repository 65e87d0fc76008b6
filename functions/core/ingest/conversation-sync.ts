/**
 * The `memory.sync-session` work: bring a memory's conversations in its index up to date, one build at a
 * time per memory. The API records every change as pending (ConversationSyncStore) before it sends the
 * message; the worker takes the memory's build lease and builds every session pending, then ends only
 * when nothing new arrived meanwhile, else builds again. A message that finds the lease taken is done at
 * once: the running build takes its change too. So a burst of changes folds into a few builds, and none
 * waits out a visibility timeout because another build won.
 *
 * Convergent: a build makes each pending session's chunks exactly its live messages (none when detached
 * or deleted), and a change is forgotten only after a published build contained it. A failed build gives
 * the lease back and leaves everything pending; a message given up after its last try leaves it pending
 * for the next change's build; a crashed build's lease is taken over by its own message when redelivered,
 * or by any change's message once the lease expires.
 */
import type { Message } from '../model';
import { sessionSourceId } from '../model';
import type { ConversationSyncStore, PendingSync, SessionLinkStore } from '../ports';
import type { MessageStore, SessionStore } from '../conversations/ports';
import type { WorkMessage } from '../work';
import type { StoredChunk } from '../stored-index/chunks';
import { emitMetric } from '../metrics';
import { type IndexDeps, buildAndPublishIndex } from './memory-index';
import { conversationChunks } from './conversation-chunks';

type SyncMessage = Extract<WorkMessage, { kind: 'memory.sync-session' }>;

export interface SyncDeps extends IndexDeps {
  sessions: SessionStore;
  sessionLinks: SessionLinkStore;
  messages: MessageStore;
  conversationSync: ConversationSyncStore;
}

/** How long a build holds its memory: longer than one build takes (it is renewed after each). */
export const SYNC_LEASE_MS = 15 * 60_000;
const PAGE = 100;

/** Builds the memory's pending conversations while this delivery holds its lease; answers the builds made. */
export function syncConversations(deps: SyncDeps, work: SyncMessage, holder: string): Promise<number> {
  const { accountId, memoryId } = work;
  const target = { store: deps.conversationSync, accountId, target: memoryId };
  return buildWhileHolding(deps.clock, target, holder, (pending) => buildPending(deps, accountId, memoryId, pending));
}

/** A store of pending changes and the target (a memory, an account's message index) they are for. */
export interface SyncTarget {
  store: ConversationSyncStore;
  accountId: string;
  target: string;
}

/**
 * The one-build-at-a-time loop: take the target's lease (or leave at once when another build holds it),
 * build what is pending, settle, and build again while more arrived. `build` answers false when the target
 * is gone (its pending changes are then dropped). Answers the builds made.
 */
export async function buildWhileHolding(
  clock: { now(): Date },
  { store, accountId, target }: SyncTarget,
  holder: string,
  build: (pending: PendingSync) => Promise<boolean>,
): Promise<number> {
  const lease = () => clock.now().getTime() + SYNC_LEASE_MS;
  let pending = await store.acquire(accountId, target, holder, clock.now().getTime(), lease());
  let builds = 0;
  try {
    while (pending) {
      if (pending.sessions.size > 0) {
        if (!(await build(pending))) {
          await store.delete(accountId, target);
          return builds;
        }
        builds++;
      }
      pending = await store.settle(accountId, target, holder, pending, lease());
    }
  } catch (error) {
    await store.release(accountId, target, holder);
    throw error;
  }
  return builds;
}

/** Publishes an index whose pending sessions hold exactly their live messages; false when the memory is gone. */
async function buildPending(deps: SyncDeps, accountId: string, memoryId: string, pending: PendingSync): Promise<boolean> {
  const added = new Map<string, readonly StoredChunk[]>();
  for (const sessionId of pending.sessions.keys()) {
    added.set(sessionSourceId(sessionId), await sessionChunks(deps, accountId, memoryId, sessionId));
  }
  const published = await buildAndPublishIndex(deps, accountId, memoryId, {
    added,
    onlyAdded: true,
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount, updatedAt: deps.clock.now().toISOString() }),
  });
  if (published.memory) reportSync(deps, { accountId, memoryId, sessions: added.size }, [...added.values()].flat());
  return published.memory !== undefined;
}

/** Sessions built, and the lag from the newest message's creation to its being searchable (imported history aside). */
function reportSync(deps: Pick<SyncDeps, 'clock'>, properties: Record<string, string | number>, chunks: readonly StoredChunk[]): void {
  emitMetric('ConversationSyncs', Number(properties.sessions), { properties });
  const newest = chunks.reduce((latest, chunk) => Math.max(latest, chunk.message ? Date.parse(chunk.message.createdAt) : 0), 0);
  const lagSeconds = (deps.clock.now().getTime() - newest) / 1000;
  if (newest > 0 && lagSeconds < 24 * 60 * 60) emitMetric('ConversationSyncLagSeconds', lagSeconds, { properties });
}

/** A session's chunks in the memory: its messages when attached and live, else none. */
async function sessionChunks(deps: SyncDeps, accountId: string, memoryId: string, sessionId: string): Promise<StoredChunk[]> {
  const [link, session] = await Promise.all([
    deps.sessionLinks.get(accountId, memoryId, sessionId),
    deps.sessions.get(accountId, sessionId),
  ]);
  const live = link !== undefined && session !== undefined && !session.deletedAt;
  return live ? conversationChunks(await messagesOf(deps, accountId, sessionId)) : [];
}

/** Every message of a session, in listing order (time, then writing order). */
export async function messagesOf(deps: Pick<SyncDeps, 'messages'>, accountId: string, sessionId: string): Promise<Message[]> {
  const all: Message[] = [];
  let nextToken: string | undefined;
  do {
    const page = await deps.messages.list(accountId, { sessionId }, { limit: PAGE, nextToken });
    all.push(...page.items);
    nextToken = page.nextToken ?? undefined;
  } while (nextToken);
  return all;
}
