import { describe, expect, it } from 'vitest';
import { resolveHost } from '../../../functions/adapters/net/dns-resolver';

describe('resolveHost', () => {
  it('answers IP literals as they are, brackets removed', async () => {
    expect(await resolveHost('10.0.0.5')).toEqual(['10.0.0.5']);
    expect(await resolveHost('::1')).toEqual(['::1']);
    expect(await resolveHost('[fe80::1]')).toEqual(['fe80::1']);
  });

  it('resolves localhost to loopback addresses', async () => {
    const addresses = await resolveHost('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(['127.0.0.1', '::1']).toContain(address);
  });
});
