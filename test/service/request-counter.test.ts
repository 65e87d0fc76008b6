/** The batched request counter against the real table: exact counts, one table write per batch. */
import { afterAll, describe, expect, it } from 'vitest';
import { BatchedRequestCounter, RequestCounterRepository } from '../../functions/adapters/dynamodb/repositories/request-counter-repository';
import { testDeps } from '../support/stores';

const deps = testDeps();
afterAll(() => deps.documentClient.destroy());

describe('batched request counter', () => {
  it('answers every request its exact count and writes the table once per batch', async () => {
    const store = new RequestCounterRepository(deps.table);
    let writes = 0;
    const counting = Object.assign(Object.create(store) as RequestCounterRepository, {
      add: (...args: Parameters<RequestCounterRepository['add']>) => {
        writes += 1;
        return store.add(...args);
      },
    });
    const counter = new BatchedRequestCounter(counting, 20, 60 * 60 * 1000);
    const account = `counter-${process.pid}-${Date.now()}`;
    const expires = Math.floor(Date.now() / 1000) + 120;
    const answers: number[] = [];
    for (let i = 0; i < 45; i++) answers.push(await counter.count(account, 7, expires));
    expect(answers).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(writes).toBe(3); // the first request, then every 20th
    await counter.written(); // the writes run beside the requests
    expect(await store.add(account, 7, 0, expires)).toBe(41); // what is not written yet stays in the container
    expect(await counter.count(account, 8, expires)).toBe(1); // a new window starts over
  });

  it('does not hold a request up for its write, and carries a failed write into the next one', async () => {
    const store = new RequestCounterRepository(deps.table);
    let failNext = true;
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => {
      release = done;
    });
    const flaky = Object.assign(Object.create(store) as RequestCounterRepository, {
      add: async (...args: Parameters<RequestCounterRepository['add']>) => {
        await held;
        if (failNext) {
          failNext = false;
          throw new Error('table unavailable');
        }
        return store.add(...args);
      },
    });
    const counter = new BatchedRequestCounter(flaky, 3, 60 * 60 * 1000);
    const account = `counter-flaky-${process.pid}-${Date.now()}`;
    const expires = Math.floor(Date.now() / 1000) + 120;
    // the first write is held: the requests are answered meanwhile, counted exactly
    const answers = [await counter.count(account, 1, expires), await counter.count(account, 1, expires)];
    expect(answers).toEqual([1, 2]);
    release();
    await counter.written(); // the first write failed: its request goes into the next write
    expect(await store.add(account, 1, 0, expires)).toBe(0);
    expect(await counter.count(account, 1, expires)).toBe(3); // three pending: written with this one
    expect(await counter.count(account, 1, expires)).toBe(4);
    await counter.written();
    expect(await store.add(account, 1, 0, expires)).toBe(3); // the fourth waits for the next batch
  });
});
