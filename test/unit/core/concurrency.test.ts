/** The one bounded-concurrency map: order kept, the bound held, at least one in flight, the first failure surfaced; and settleAll. */
import { describe, expect, it } from 'vitest';
import { mapConcurrently, settleAll } from '../../../functions/core/concurrency';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('mapConcurrently', () => {
  it('keeps the order of the items and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapConcurrently([5, 1, 4, 2, 3, 0], 2, async (item, index) => {
      running++;
      peak = Math.max(peak, running);
      for (let i = 0; i < item; i++) await tick();
      running--;
      return `${index}:${item}`;
    });
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
    expect(peak).toBe(2);
  });

  it('runs one at a time when the limit is zero or less, rather than nothing', async () => {
    expect(await mapConcurrently([1, 2, 3], 0, async (item) => item * 2)).toEqual([2, 4, 6]);
    expect(await mapConcurrently([1], -3, async (item) => item)).toEqual([1]);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapConcurrently([1, 2, 3], 3, async (item) => {
        if (item === 2) throw new Error('two failed');
        return item;
      }),
    ).rejects.toThrow('two failed');
  });
});

describe('settleAll', () => {
  it('rejects with the first failure only once every write has settled, so none lands after a cleanup', async () => {
    const landed: string[] = [];
    const slow = new Promise((resolve) => setTimeout(resolve, 30)).then(() => landed.push('slow'));
    const failing = Promise.reject(new Error('put failed'));
    const later = new Promise((_, reject) => setTimeout(() => reject(new Error('second failure')), 10));
    await expect(settleAll([failing, slow, later])).rejects.toThrow('put failed');
    expect(landed).toEqual(['slow']);
    await expect(settleAll([Promise.resolve(1), tick()])).resolves.toBeUndefined();
  });
});
