/**
 * Message search over the account's message index, with the real use cases against the test runtime's
 * stores: a search reads a few items (the index pointer, the hits and their sessions), never the
 * account's messages, however many there are; commands are counted with an SDK middleware on the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainQueue } from '../support/drain-queue';
import { testConfig, testDeps } from '../support/stores';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createSession } from '../../functions/core/use-cases/sessions';
import { createMessage } from '../../functions/core/use-cases/messages';
import { searchMessages } from '../../functions/core/use-cases/message-search';
import { mapConcurrently } from '../../functions/core/concurrency';

// what a search reads is the property, not how it ranks: no word vectors to load (seconds) in this process
const deps = testDeps(testConfig({ KMEM_EMBEDDER: 'none', KMEM_GRAPH_WORD_VECTORS: 'false' }));
const commands: string[] = [];
let accountId: string;

beforeAll(async () => {
  deps.documentClient.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'countCommands' },
  );
  accountId = (await createAccount(deps, `search-${process.pid}-${Date.now()}`)).account.id;
});
afterAll(() => deps.documentClient.destroy());

describe('message search', () => {
  it('ranks over the message index without reading the account messages', { timeout: 120_000 }, async () => {
    const sessions = [await createSession(deps, accountId, {}), await createSession(deps, accountId, {})];
    // more than one page of the account's messages (100): reading them would take several queries
    await mapConcurrently(
      Array.from({ length: 150 }, (_, i) => i),
      10,
      (i) => {
        const content = i === 120 ? 'The harbour ferry leaves at seven.' : `Routine status update number ${i} about the weekly report.`;
        return createMessage(deps, accountId, { sessionId: sessions[i % 2]!.id, role: 'user', content });
      },
    );
    await drainQueue(deps);
    commands.length = 0;
    const found = await searchMessages(deps, accountId, { query: 'when does the ferry leave', topK: 5 });
    expect(found[0]?.message.content).toBe('The harbour ferry leaves at seven.');
    expect(commands.filter((name) => name === 'QueryCommand')).toEqual([]);
    expect(commands.length).toBeLessThanOrEqual(1 + 2 * 5 + 2 * 15); // pointer, hits and their sessions (with headroom)
  });
});
