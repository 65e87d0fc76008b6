/**
 * The worker's check that an account is being erased, through its real SQS handler over memory stores: the
 * records of one batch (which run at once) share one read of each account, and the next batch reads again.
 * Work of an account being erased is dropped; the same work in a batch that finds the account live is done.
 */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { objectKeys } from '../../functions/core/object-keys';
import type { AccountStore } from '../../functions/core/ports';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMessage } from '../../functions/core/use-cases/messages';
import { createSession } from '../../functions/core/use-cases/sessions';
import { lambdaContext } from '../../functions/local/lambda-context';
import { createWorkerHandler } from '../../functions/worker/handler';
import { memoryDeps } from '../support/memory';

function record(body: object, messageId: string): SQSRecord {
  return {
    messageId,
    receiptHandle: messageId,
    body: JSON.stringify(body),
    attributes: { ApproximateReceiveCount: '1' } as SQSRecord['attributes'],
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:0:test',
    awsRegion: 'local',
  };
}

describe('the worker’s erasure check', () => {
  it('reads each account once a batch and again in the next, dropping the work of an account being erased', async () => {
    const deps = memoryDeps();
    const reads: string[] = [];
    // accounts as `kmem accounts delete` marks them (AccountErasureStore.markDeleting, which the memory stores
    // do not implement; the table's is held to it end to end in test/api/erasure-accounts.test.ts)
    const beingErased = new Set<string>();
    const inner = deps.worker.accounts;
    const accounts: AccountStore = Object.assign(Object.create(inner) as AccountStore, {
      get: async (accountId: string) => {
        reads.push(accountId);
        const account = await inner.get(accountId);
        return account && beingErased.has(accountId) ? { ...account, deletingAt: new Date().toISOString() } : account;
      },
    });
    const handler = createWorkerHandler(() => ({ ...deps.worker, accounts }));
    /** A session with one message, and the summary update its message asked for. */
    const summaryWork = async (accountId: string) => {
      const session = await createSession(deps, accountId, {});
      await createMessage(deps, accountId, { sessionId: session.id, role: 'user', content: 'We moved the launch to Friday.' });
      return { accountId, sessionId: session.id, body: { kind: 'session.summarize', accountId, sessionId: session.id } };
    };
    const summaryOf = (work: { accountId: string; sessionId: string }) =>
      deps.objects.get(objectKeys.sessionSummary(work.accountId, work.sessionId));
    const [erased, other] = [(await createAccount(deps, 'erased')).account.id, (await createAccount(deps, 'other')).account.id];
    beingErased.add(erased);
    beingErased.add(other);

    const works = [
      ...(await Promise.all([1, 2, 3, 4, 5].map(() => summaryWork(erased)))),
      ...(await Promise.all([1, 2, 3].map(() => summaryWork(other)))),
    ];
    const first: SQSEvent = { Records: works.map((work, i) => record(work.body, `first-${i}`)) };
    expect((await handler(first, lambdaContext('worker', 'first'))).batchItemFailures).toEqual([]);
    expect([...reads].sort()).toEqual([erased, other].sort());
    for (const work of works) expect(await summaryOf(work)).toBeUndefined();

    // the next batch reads the account again: found live now, the same work is done
    beingErased.delete(erased);
    const again: SQSEvent = { Records: [record(works[0]!.body, 'again')] };
    expect((await handler(again, lambdaContext('worker', 'again'))).batchItemFailures).toEqual([]);
    expect(reads.filter((id) => id === erased)).toHaveLength(2);
    expect(await summaryOf(works[0]!)).toBeDefined();
  });
});
