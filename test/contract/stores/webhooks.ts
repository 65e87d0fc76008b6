/** The contract of WebhookStore (the outbox). */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../functions/core/errors';
import { at, delivery, type MakeStores, newId } from './records';

export function webhookStoreContract(make: MakeStores): void {
  describe('WebhookStore', () => {
    it('stores an event once, and counts a try only over the attempts expected', async () => {
      const { webhooks } = make();
      const accountId = newId();
      const d = delivery(accountId);
      await webhooks.create(d);
      await expect(webhooks.create(d)).rejects.toBeInstanceOf(ConflictError);
      expect(
        await webhooks.update(accountId, d.eventId, { attempts: 1, lastStatus: 500, lastError: 'HTTP 500', nextAttemptAt: at(5) }, 0),
      ).toMatchObject({ attempts: 1, lastStatus: 500 });
      await expect(webhooks.update(accountId, d.eventId, { attempts: 1 }, 0)).rejects.toBeInstanceOf(ConflictError);
      const done = await webhooks.update(
        accountId,
        d.eventId,
        { attempts: 2, state: 'delivered', deliveredAt: at(9), lastStatus: 200, lastError: null, nextAttemptAt: null },
        1,
      );
      expect(done).toEqual({
        ...d,
        attempts: 2,
        state: 'delivered',
        deliveredAt: at(9),
        lastStatus: 200,
        lastError: null,
        nextAttemptAt: null,
      });
      expect(await webhooks.get(accountId, d.eventId)).toEqual(done);
    });

    it('answers nothing for another account’s event or a missing one', async () => {
      const { webhooks } = make();
      const d = delivery(newId());
      await webhooks.create(d);
      expect(await webhooks.get(newId(), d.eventId)).toBeUndefined();
      expect(await webhooks.update(newId(), d.eventId, { attempts: 5 }, 0)).toBeUndefined();
      expect(await webhooks.update(d.accountId, newId(), { attempts: 5 })).toBeUndefined();
      expect((await webhooks.get(d.accountId, d.eventId))?.attempts).toBe(0);
    });
  });
}
