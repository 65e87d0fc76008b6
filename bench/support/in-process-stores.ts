/**
 * What the in-process benches (write-cost, message-write-cost, segment-latency) share over the stores in
 * memory: an object store that counts the bytes written and read, and attaching a file to a memory as the
 * use cases would (a link record) without uploading it.
 */
import type { LinkStore, ObjectStore } from '../../functions/core/ports';

export interface CountedObjects {
  objects: ObjectStore;
  written: { bytes: number };
  read: { bytes: number };
}

/** `store` with every put's and get's bytes counted. */
export function countedObjects(store: ObjectStore): CountedObjects {
  const written = { bytes: 0 };
  const read = { bytes: 0 };
  const objects: ObjectStore = Object.assign(Object.create(store) as ObjectStore, {
    put: (key: string, body: Uint8Array | string, type?: string) => {
      written.bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      return store.put(key, body, type);
    },
    get: async (key: string) => {
      const bytes = await store.get(key);
      read.bytes += bytes?.byteLength ?? 0;
      return bytes;
    },
  });
  return { objects, written, read };
}

/** Links `fileId` to the memory (ingested now): what a build needs to hold the file's chunks. */
export async function linkFile(links: LinkStore, memory: { accountId: string; memoryId: string }, fileId: string): Promise<void> {
  const at = new Date().toISOString();
  await links.create({ id: `${fileId}-l`, ...memory, fileId, type: 'file', ingestedAt: at, createdAt: at, updatedAt: at });
}
