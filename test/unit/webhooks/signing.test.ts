import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../../functions/core/webhooks/signing';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);
const event = { id: 'evt-1', type: 'file.ready', createdAt: '2024-01-01T00:00:00.000Z', data: { n: 'é✓' } };
const payload = JSON.stringify(event);

function headers(id: string, timestamp: number, signature: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('signWebhook', () => {
  it('is verified by the official standardwebhooks package', () => {
    const timestamp = now();
    const signature = signWebhook({ secret, id: 'evt-1', timestamp, payload });
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(payload, headers('evt-1', timestamp, signature))).toEqual(JSON.parse(payload));
  });

  it('matches what the official package signs, with or without the whsec_ prefix', () => {
    const timestamp = 1_700_000_000;
    const official = new Webhook(secret).sign('msg_x', new Date(timestamp * 1000), payload);
    expect(signWebhook({ secret, id: 'msg_x', timestamp, payload })).toBe(official);
    expect(signWebhook({ secret: secret.slice('whsec_'.length), id: 'msg_x', timestamp, payload })).toBe(official);
  });

  it('is refused by the official package when anything was tampered with', () => {
    const timestamp = now();
    const signature = signWebhook({ secret, id: 'evt-1', timestamp, payload });
    const webhook = new Webhook(secret);
    const other = new Webhook(`whsec_${randomBytes(32).toString('base64')}`);
    expect(() => webhook.verify(`${payload} `, headers('evt-1', timestamp, signature))).toThrow();
    expect(() => webhook.verify(payload, headers('evt-2', timestamp, signature))).toThrow();
    expect(() => webhook.verify(payload, headers('evt-1', timestamp - 1, signature))).toThrow();
    expect(() => other.verify(payload, headers('evt-1', timestamp, signature))).toThrow();
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => signWebhook({ secret, id: 'a', timestamp: 1.5, payload })).toThrow(/whole seconds/);
  });

  it('refuses an empty secret', () => {
    expect(() => signWebhook({ secret: 'whsec_', id: 'a', timestamp: 1, payload })).toThrow(/empty/);
  });
});

describe('verifyWebhook', () => {
  const timestamp = now();
  const official = new Webhook(secret).sign('evt-1', new Date(timestamp * 1000), payload);
  const content = { secret, id: 'evt-1', timestamp, payload };

  it('accepts what the official package signs', () => {
    expect(verifyWebhook({ ...content, signature: official })).toBe(true);
  });

  it('refuses tampered payloads, ids, timestamps, signatures and other secrets', () => {
    expect(verifyWebhook({ ...content, payload: `${payload} `, signature: official })).toBe(false);
    expect(verifyWebhook({ ...content, id: 'evt-2', signature: official })).toBe(false);
    expect(verifyWebhook({ ...content, timestamp: timestamp + 1, signature: official })).toBe(false);
    const flipped = `${official.slice(0, 5)}${official[5] === 'A' ? 'B' : 'A'}${official.slice(6)}`;
    expect(verifyWebhook({ ...content, signature: flipped })).toBe(false);
    expect(verifyWebhook({ ...content, signature: official.slice(0, -2) })).toBe(false);
    expect(verifyWebhook({ ...content, signature: '' })).toBe(false);
    const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
    expect(verifyWebhook({ ...content, secret: otherSecret, signature: official })).toBe(false);
  });

  it('accepts a valid v1 entry among several and ignores other versions', () => {
    const encoded = official.split(',')[1];
    expect(verifyWebhook({ ...content, signature: `v1,bm9wZQ== ${official}` })).toBe(true);
    expect(verifyWebhook({ ...content, signature: `v2,${encoded}` })).toBe(false);
  });

  it('refuses timestamps outside the tolerance either way', () => {
    const old = timestamp - 301;
    const signature = signWebhook({ secret, id: 'evt-1', timestamp: old, payload });
    expect(verifyWebhook({ ...content, timestamp: old, signature })).toBe(false);
    expect(verifyWebhook({ ...content, timestamp: old, signature, toleranceSeconds: 600 })).toBe(true);
    expect(verifyWebhook({ ...content, timestamp: old, signature, now: old + 10 })).toBe(true);
    expect(verifyWebhook({ ...content, timestamp: old, signature, now: old - 301 })).toBe(false);
  });
});
