import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../functions/core/errors';
import {
  assertFetchable,
  guardAddress,
  HostResolutionError,
  isInternalName,
  isPrivateAddress,
  UnsafeAddressError,
} from '../../../functions/core/net/address-guard';

/** A resolver answering from a table, recording what it was asked. */
function fakeDns(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<string[]> => {
    asked.push(host);
    return table[host] ?? [];
  };
  return { asked, resolve };
}

const strict = (table: Record<string, string[]> = {}) => ({ allowPrivate: false, ...fakeDns(table) });

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.5', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['172.31.255.255', 'RFC 1918'],
    ['192.168.1.1', 'RFC 1918'],
    ['169.254.169.254', 'metadata / link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fc00::1', 'ULA'],
    ['fd12:3456:789a::1', 'ULA'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with zone'],
    ['febf::1', 'IPv6 link-local upper end'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:0:a00:1', 'IPv4-translated private'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['[::1]', 'bracketed'],
    ['not an ip', 'not an address'],
    ['', 'empty'],
  ])('%s is private (%s)', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.216.34'],
    ['172.15.255.255'],
    ['172.32.0.1'],
    ['100.63.255.255'],
    ['100.128.0.1'],
    ['169.253.255.255'],
    ['2606:4700:4700::1111'],
    ['2001:4860:4860::8888'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['2002:808:808::1'],
    ['[2606:4700:4700::1111]'],
  ])('%s is public', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe('isInternalName', () => {
  const internal = ['localhost', 'LOCALHOST', 'localhost.', 'a.localhost', 'metadata', 'metadata.google.internal'];
  it.each([...internal, 'x.internal', 'printer.local', 'nas.home.arpa'])('%s is internal', (name) =>
    expect(isInternalName(name)).toBe(true),
  );
  it.each(['example.com', 'localhost.example.com', 'internal.example.com', 'metadata.example.com'])('%s is not internal', (name) =>
    expect(isInternalName(name)).toBe(false),
  );
});

describe('assertFetchable', () => {
  it('answers the parsed URL of a public address', async () => {
    const dns = strict({ 'example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    const url = await assertFetchable('https://example.com/hook?x=1', dns);
    expect(url.href).toBe('https://example.com/hook?x=1');
    expect(dns.asked).toEqual(['example.com']);
  });

  it.each([
    ['not a url', 'url: is not a valid URL'],
    ['ftp://example.com/', 'url: must be an http or https URL'],
    ['file:///etc/passwd', 'url: must be an http or https URL'],
    ['javascript:alert(1)', 'url: must be an http or https URL'],
    ['https://user:pass@example.com/', 'url: must not contain credentials'],
    ['https://user@example.com/', 'url: must not contain credentials'],
  ])('refuses %s, even with private addresses allowed', async (url, message) => {
    for (const allowPrivate of [false, true]) {
      const dns = { ...strict({ 'example.com': ['93.184.216.34'] }), allowPrivate };
      await expect(assertFetchable(url, dns)).rejects.toThrow(new UnsafeAddressError(message));
      expect(dns.asked).toEqual([]);
    }
  });

  it.each([
    ['http://127.0.0.1:8080/', 'url: is a private address (127.0.0.1)'],
    ['http://2130706433/', 'url: is a private address (127.0.0.1)'],
    ['http://0x7f.1/', 'url: is a private address (127.0.0.1)'],
    ['http://169.254.169.254/latest/meta-data/', 'url: is a private address (169.254.169.254)'],
    ['http://[::1]/', 'url: is a private address (::1)'],
    ['http://[::ffff:127.0.0.1]/', 'url: is a private address (::ffff:7f00:1)'],
    ['http://[fd00::1]/', 'url: is a private address (fd00::1)'],
    ['http://localhost:3000/', "url: host 'localhost' is an internal name"],
    ['http://LocalHost./', "url: host 'localhost' is an internal name"],
    ['http://metadata.google.internal/computeMetadata/v1/', "url: host 'metadata.google.internal' is an internal name"],
  ])('refuses %s without asking DNS', async (url, message) => {
    const dns = strict();
    const error = await assertFetchable(url, dns).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeAddressError);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toBe(message);
    expect(dns.asked).toEqual([]);
  });

  it('refuses a public-looking name that resolves to loopback (localtest.me)', async () => {
    const dns = strict({ 'localtest.me': ['127.0.0.1'] });
    await expect(assertFetchable('http://localtest.me/', dns)).rejects.toThrow(
      new UnsafeAddressError("url: host 'localtest.me' does not resolve to a public address"),
    );
  });

  it('refuses a name when any of its addresses is private', async () => {
    const dns = strict({ 'mixed.example': ['93.184.216.34', '10.0.0.5'] });
    await expect(assertFetchable('https://mixed.example/', dns)).rejects.toThrow(
      new UnsafeAddressError("url: host 'mixed.example' does not resolve to a public address"),
    );
  });

  it('refuses names resolving to metadata, CGNAT and IPv6 private addresses', async () => {
    const table = { a: ['169.254.169.254'], b: ['100.64.1.1'], c: ['fe80::1'], d: ['::ffff:192.168.0.1'] };
    for (const [host, addresses] of Object.entries(table)) {
      const dns = strict({ [`${host}.test`]: addresses });
      await expect(assertFetchable(`http://${host}.test/`, dns)).rejects.toBeInstanceOf(UnsafeAddressError);
    }
  });

  it('answers a name that does not resolve as one resolving to a private address, naming no address', async () => {
    // what the service's resolver knows about internal names (a VPC's private zone) is not for the caller
    const internal = await assertFetchable('http://vm.corp.example/', strict({ 'vm.corp.example': ['10.1.2.3'] })).catch((e: unknown) => e);
    const missing = await assertFetchable('http://nowhere.example/', strict()).catch((e: unknown) => e);
    expect(internal).toBeInstanceOf(UnsafeAddressError);
    expect(missing).toBeInstanceOf(UnsafeAddressError);
    expect((internal as Error).message).toBe("url: host 'vm.corp.example' does not resolve to a public address");
    expect((missing as Error).message).toBe("url: host 'nowhere.example' does not resolve to a public address");
    expect((internal as Error).message).not.toContain('10.1.2.3');
  });

  it('reports a name that does not resolve as a HostResolutionError when private addresses are allowed', async () => {
    const error = await assertFetchable('https://nowhere.example/', { ...fakeDns({}), allowPrivate: true, field: 'url' })
      .then(() => guardAddress('https://nowhere.example/', { ...fakeDns({}), allowPrivate: true }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostResolutionError);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).not.toBeInstanceOf(UnsafeAddressError);
    expect((error as Error).message).toBe("url: host 'nowhere.example' does not resolve");
  });

  it('passes on resolver failures unchanged', async () => {
    const failure = new Error('queryA EAI_AGAIN example.com');
    const resolve = async (): Promise<string[]> => {
      throw failure;
    };
    await expect(assertFetchable('https://example.com/', { allowPrivate: false, resolve })).rejects.toBe(failure);
  });

  it('allows private addresses and internal names when allowPrivate, without resolving', async () => {
    const dns = { ...strict(), allowPrivate: true };
    for (const url of ['http://127.0.0.1:9/', 'http://localhost/', 'http://[::1]/', 'http://10.0.0.5/']) {
      await expect(assertFetchable(url, dns)).resolves.toBeInstanceOf(URL);
    }
    expect(dns.asked).toEqual([]);
  });

  it('checks a name spelled with a trailing dot once, and answers the addresses it checked', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return asked.length === 1 ? ['93.184.216.34'] : ['127.0.0.1'];
    };
    const guarded = await guardAddress('http://name.example.:8080/', { allowPrivate: false, resolve });
    expect(guarded.addresses).toEqual(['93.184.216.34']);
    expect(guarded.url.host).toBe('name.example.:8080');
    expect(asked).toEqual(['name.example']);
    const literal = await guardAddress('http://[::ffff:7f00:1]/', { allowPrivate: true, resolve });
    expect(literal.addresses).toEqual(['::ffff:7f00:1']);
  });

  it('names the given field in its errors', async () => {
    await expect(assertFetchable('http://127.0.0.1/', { ...strict(), field: 'webhookUrl' })).rejects.toThrow(
      'webhookUrl: is a private address (127.0.0.1)',
    );
  });
});
