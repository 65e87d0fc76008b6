/** The archive reader's limits, on archives made here: real streamed sizes, paths, counts and ratios. */
import { describe, expect, it } from 'vitest';
import { type ArchiveLimits, archiveFormat, archiveMembers, checkArchive } from '../../../functions/adapters/archive/archive-reader';
import { makeTar, makeTarGz, makeTraversalZip, makeZip } from '../../support/archives';

const limits: ArchiveLimits = { maxArchiveBytes: 1 << 24, maxMembers: 10, maxMemberBytes: 1 << 24, maxTotalBytes: 1 << 25, maxRatio: 100 };
const members = { 'a.txt': 'alpha', 'docs/b.md': '# beta', './c.txt': 'gamma' };

async function read(bytes: Uint8Array, name: string, given = limits) {
  const format = archiveFormat(name, bytes);
  if (!format) throw new Error('no format');
  await checkArchive(bytes, format, given);
  const out: Record<string, string> = {};
  for await (const member of archiveMembers(bytes, format, given)) out[member.path] = Buffer.from(await member.read()).toString();
  return out;
}

describe('archive reader', () => {
  it('reads the members of a zip, a tar and a tar.gz', async () => {
    const expected = { 'a.txt': 'alpha', 'docs/b.md': '# beta', 'c.txt': 'gamma' };
    expect(await read(await makeZip({ 'a.txt': 'alpha', 'docs/b.md': '# beta', 'c.txt': 'gamma' }), 'x.zip')).toEqual(expected);
    expect(await read(await makeTar(members), 'x.tar')).toEqual(expected);
    expect(await read(await makeTarGz(members), 'x.tgz')).toEqual(expected);
    expect(archiveFormat('noext', await makeTarGz(members))).toBe('tar.gz');
  });

  it('refuses a zip bomb, from the streamed bytes', async () => {
    const bomb = await makeZip({ 'zeros.bin': new Uint8Array(8 << 20) });
    expect(bomb.length).toBeLessThan(100_000);
    await expect(checkArchive(bomb, 'zip', limits)).rejects.toThrow(/decompresses more than 100 times/);
    const gzBomb = await makeTarGz({ 'zeros.bin': new Uint8Array(8 << 20) });
    await expect(checkArchive(gzBomb, 'tar.gz', limits)).rejects.toThrow(/more than 100 times its size/);
  });

  it('refuses a member that leaves the archive', async () => {
    await expect(checkArchive(await makeTraversalZip(), 'zip', limits)).rejects.toThrow(/\.\.\/evil\.txt/);
    await expect(checkArchive(await makeTar({ '../../etc/evil': 'x' }), 'tar', limits)).rejects.toThrow(/leaves the archive/);
    await expect(checkArchive(await makeTar({ '/etc/evil': 'x' }), 'tar', limits)).rejects.toThrow(/is absolute/);
  });

  it('refuses more members than allowed, and members larger than allowed', async () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`m${i}.txt`, `member ${i}`]));
    await expect(checkArchive(await makeZip(many), 'zip', limits)).rejects.toThrow(/over the limit of 10/);
    await expect(checkArchive(await makeTar(many), 'tar', limits)).rejects.toThrow(/more than 10 members/);
    const small = { ...limits, maxMemberBytes: 4 };
    await expect(checkArchive(await makeTar({ 'big.txt': 'too large' }), 'tar', small)).rejects.toThrow(/big\.txt' is larger than 4 bytes/);
  });

  const text = 'Hedgehogs hibernate through the winter. '.repeat(50);
  /** A zip of two members, and the fingerprint its first member's entry records. */
  async function knownZip() {
    const zip = await makeZip({ 'a.txt': text, 'b.txt': 'Swifts sleep while flying.' });
    const fingerprints = new Map<string, string>();
    for await (const member of archiveMembers(zip, 'zip', limits)) fingerprints.set(member.path, member.fingerprint ?? '');
    const fingerprint = fingerprints.get('a.txt') ?? '';
    expect(fingerprint).toMatch(new RegExp(`^zip-crc32:[0-9a-f]{8}:${text.length}$`));
    return { zip, fingerprint };
  }

  it('does not decompress a member known unchanged by path and fingerprint', async () => {
    const { zip, fingerprint } = await knownZip();
    // the first member's compressed data follows its local header (30 bytes, then its name and extra field)
    const dataStart = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
    const corrupt = Buffer.from(zip);
    corrupt.fill(0xff, dataStart, dataStart + 8);
    await expect(checkArchive(corrupt, 'zip', limits)).rejects.toThrow(/member 'a\.txt' cannot be read/);
    expect(await checkArchive(corrupt, 'zip', limits, new Map([['a.txt', fingerprint]]))).toEqual(['a.txt', 'b.txt']);
    // another fingerprint for that path is not the member known: it is read, and refused
    const moved = new Map([['a.txt', `zip-crc32:00000000:${text.length}`]]);
    await expect(checkArchive(corrupt, 'zip', limits, moved)).rejects.toThrow(/member 'a\.txt' cannot be read/);
  });

  it('counts the recorded size of a member known unchanged toward the total limit', async () => {
    const { zip, fingerprint } = await knownZip();
    const tight = { ...limits, maxTotalBytes: text.length + 10 }; // the known member fits, the two do not
    await expect(checkArchive(zip, 'zip', tight, new Map([['a.txt', fingerprint]]))).rejects.toThrow(
      /members are larger than \d+ bytes once decompressed/,
    );
  });

  it('refuses an archive in which a member path appears twice (tar and zip)', async () => {
    const twice = [
      ['same.txt', 'first copy'],
      ['other.txt', 'other'],
      ['same.txt', 'second copy'],
    ] as Array<[string, string]>;
    await expect(checkArchive(await makeTar(twice), 'tar', limits)).rejects.toThrow(/member path 'same\.txt' appears twice/);
    await expect(checkArchive(await makeTarGz(twice), 'tar.gz', limits)).rejects.toThrow(/member path 'same\.txt' appears twice/);
    await expect(checkArchive(await makeZip(twice), 'zip', limits)).rejects.toThrow(/member path 'same\.txt' appears twice/);
    // the same path once written `./same.txt` is the same member
    const dotted = await makeTar([
      ['same.txt', 'a'],
      ['./same.txt', 'b'],
    ]);
    await expect(checkArchive(dotted, 'tar', limits)).rejects.toThrow(/member path 'same\.txt' appears twice/);
  });
});
