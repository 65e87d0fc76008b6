/** Archives made in the test (nothing large is committed): zip with yazl, tar with tar-stream, tar.gz with zlib. */
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { ZipFile } from 'yazl';

export type Members = Record<string, string | Uint8Array>;
/** Members as a list, where a path may repeat. */
export type MemberList = Array<[path: string, content: string | Uint8Array]>;

const entriesOf = (members: Members | MemberList) => (Array.isArray(members) ? members : Object.entries(members));

async function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export async function makeZip(members: Members | MemberList): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [path, content] of entriesOf(members)) zip.addBuffer(Buffer.from(content), path);
  zip.end();
  return collect(zip.outputStream);
}

export async function makeTar(members: Members | MemberList): Promise<Buffer> {
  const tar = pack();
  for (const [name, content] of entriesOf(members)) tar.entry({ name }, Buffer.from(content));
  tar.finalize();
  return collect(tar);
}

export async function makeTarGz(members: Members | MemberList): Promise<Buffer> {
  return gzipSync(await makeTar(members));
}

/**
 * A zip whose member escapes with `../` (yazl refuses to write one, as it should): written as `zz/` and
 * the name bytes patched in the local header and the central directory.
 */
export async function makeTraversalZip(): Promise<Buffer> {
  const zip = await makeZip({ 'ok.txt': 'fine', 'zz/evil.txt': 'escaped' });
  return Buffer.from(zip.toString('latin1').replaceAll('zz/evil.txt', '../evil.txt'), 'latin1');
}
