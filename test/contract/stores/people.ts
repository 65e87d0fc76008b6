/** The contracts of UserStore, SessionStore and MessageStore. */
import { describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError } from '../../../functions/core/errors';
import { at, type MakeStores, message, newId, session, user, walkPages } from './records';

export function userStoreContract(make: MakeStores): void {
  describe('UserStore', () => {
    it('creates, reads and deletes users of one account only, refusing a second user of the same id', async () => {
      const { users } = make();
      const [a, b] = [newId(), newId()];
      const one = user(a, 1);
      await users.create(one);
      await expect(users.create(one)).rejects.toBeInstanceOf(ConflictError);
      await users.create(user(b, 1, one.id)); // the same id in another account is another user
      expect(await users.get(a, one.id)).toEqual(one);
      expect((await users.get(b, one.id))?.accountId).toBe(b);
      expect(await users.delete(a, one.id)).toBe(true);
      expect(await users.delete(a, one.id)).toBe(false);
      expect(await users.get(a, one.id)).toBeUndefined();
      expect(await users.get(b, one.id)).toBeDefined();
    });

    it('pages an account’s users in creation order, forward and back, with tokens bound to the listing', async () => {
      const { users } = make();
      const [a, b] = [newId(), newId()];
      const created = [];
      for (const seconds of [5, 1, 4, 2, 3]) {
        const u = user(a, seconds);
        created.push(u);
        await users.create(u);
      }
      await users.create(user(b, 0));
      const ordered = [...created].sort((x, y) => x.createdAt.localeCompare(y.createdAt)).map((u) => u.id);
      const { forward, back, first } = await walkPages((page) => users.list(a, page), 2);
      expect(forward.map((page) => page.map((u) => u.id))).toEqual([ordered.slice(0, 2), ordered.slice(2, 4), ordered.slice(4)]);
      expect(back.map((page) => page.map((u) => u.id))).toEqual([ordered.slice(0, 2), ordered.slice(2, 4)]);
      expect(first.previousToken).toBeNull();
      const page = await users.list(a, { limit: 2 });
      await expect(users.list(b, { limit: 2, nextToken: page.nextToken ?? '' })).rejects.toBeInstanceOf(BadRequestError);
      await expect(users.list(a, { limit: 2, previousToken: page.nextToken ?? '' })).rejects.toBeInstanceOf(BadRequestError);
      await expect(users.list(a, { limit: 2, nextToken: 'forged' })).rejects.toThrow(/nextToken/);
      expect(await users.list(newId(), { limit: 2 })).toEqual({ items: [], nextToken: null, previousToken: null });
    });
  });
}

export function sessionStoreContract(make: MakeStores): void {
  describe('SessionStore', () => {
    it('stamps deletion and end once, keeping the first time', async () => {
      const { sessions } = make();
      const accountId = newId();
      const s = session(accountId);
      await sessions.create(s);
      await expect(sessions.create(s)).rejects.toBeInstanceOf(ConflictError);
      expect((await sessions.markEnded(accountId, s.id, at(10)))?.endedAt).toBe(at(10));
      expect((await sessions.markEnded(accountId, s.id, at(20)))?.endedAt).toBe(at(10));
      expect(await sessions.markDeleted(accountId, s.id, at(30))).toMatchObject({ deletedAt: at(30), endedAt: at(10) });
      expect((await sessions.markDeleted(accountId, s.id, at(40)))?.deletedAt).toBe(at(30));
      expect(await sessions.markDeleted(newId(), s.id, at(40))).toBeUndefined();
      expect(await sessions.markEnded(accountId, newId(), at(40))).toBeUndefined();
    });

    it('numbers a session’s messages 1, 2, … with the session as it stands, and has no number for a missing session', async () => {
      const { sessions } = make();
      const accountId = newId();
      const s = session(accountId);
      await sessions.create(s);
      expect(await sessions.nextMessageSequence(accountId, s.id)).toEqual({ session: s, sequence: 1 });
      expect(await sessions.nextMessageSequence(accountId, s.id)).toEqual({ session: s, sequence: 2 });
      // the number comes with the session as that write found it: a message write reads nothing else
      await sessions.markDeleted(accountId, s.id, at(50));
      expect(await sessions.nextMessageSequence(accountId, s.id)).toEqual({
        session: { ...s, deletedAt: at(50), updatedAt: at(50) },
        sequence: 3,
      });
      expect(await sessions.nextMessageSequence(newId(), s.id)).toBeUndefined();
      expect(await sessions.nextMessageSequence(accountId, newId())).toBeUndefined();
    });

    it('reads many sessions at once, by id: those of the account that exist, a hundred and more', async () => {
      const { sessions } = make();
      const accountId = newId();
      const made = Array.from({ length: 130 }, () => session(accountId));
      for (const s of made) await sessions.create(s);
      await sessions.create(session(newId(), made[0]!.id)); // the same id in another account is not read
      const asked = [...made.map((s) => s.id), newId(), made[1]!.id];
      const found = await sessions.getMany(accountId, asked);
      expect(found.size).toBe(130);
      for (const s of made) expect(found.get(s.id)).toEqual(s);
      expect(await sessions.getMany(accountId, [])).toEqual(new Map());
    });
  });
}

export function messageStoreContract(make: MakeStores): void {
  describe('MessageStore', () => {
    it('lists by creation time, then writing order, then id; filtered by session, customer and role', async () => {
      const { messages } = make();
      const accountId = newId();
      const [s1, s2] = [newId(), newId()];
      const second = message(accountId, s1, 5, { sequence: 2, role: 'assistant' });
      const first = message(accountId, s1, 5, { sequence: 1, customerUserId: 'cust' });
      const earliest = message(accountId, s2, 1, { customerUserId: 'cust' });
      for (const m of [second, first, earliest]) await messages.create(m);
      await messages.create(message(newId(), s1, 0));
      await expect(messages.create(first)).rejects.toBeInstanceOf(ConflictError);
      const ids = async (filter: Parameters<typeof messages.list>[1]) =>
        (await messages.list(accountId, filter, { limit: 10 })).items.map((m) => m.id);
      expect(await ids({})).toEqual([earliest.id, first.id, second.id]);
      expect(await ids({ sessionId: s1 })).toEqual([first.id, second.id]);
      expect(await ids({ customerUserId: 'cust' })).toEqual([earliest.id, first.id]);
      expect(await ids({ sessionId: s1, customerUserId: 'cust' })).toEqual([first.id]);
      expect(await ids({ role: 'assistant' })).toEqual([second.id]);
      const { forward } = await walkPages((page) => messages.list(accountId, {}, page), 1);
      expect(forward.flat().map((m) => m.id)).toEqual([earliest.id, first.id, second.id]);
      expect(await messages.delete(accountId, first.id)).toBe(true);
      expect(await messages.delete(accountId, first.id)).toBe(false);
      expect(await messages.get(accountId, first.id)).toBeUndefined();
      expect(await messages.get(accountId, second.id)).toEqual(second);
      // many at once, by id: those of this account that exist (the deleted one and an unknown id are not there)
      const many = await messages.getMany(accountId, [second.id, first.id, earliest.id, newId(), second.id]);
      expect(many).toEqual(
        new Map([
          [second.id, second],
          [earliest.id, earliest],
        ]),
      );
    });
  });
}
