import { WEB_FILE_TYPES } from '../../../core/files/file-kinds';
import { z } from 'zod';
import { FILE_CATEGORIES, FILE_TYPES, type FileCategory, type FileRecord, type Page, type PageRequest } from '../../../core/model';
import { ConflictError } from '../../../core/errors';
import { changesSourceFields, type FileStore, type ResyncClaim, type ResyncClaimResult } from '../../../core/files/ports';
import { count, itemOf, itemSchema, nullable, readAll, storedTimestamp } from '../item-schema';
import { byCreation, keys } from '../keys';
import type { Item, QueryFilter, Table } from '../table';

/** A file as stored (jobId and externalUrl under the names earlier versions wrote). sourceKey, contentHash, validators and stagedTextKey came later: older files have none (null); metadata later still (none: []). */
const fileItem = itemSchema<FileRecord>(
  'file',
  z.object({
    id: z.string(),
    accountId: z.string(),
    name: z.string(),
    extension: z.string(),
    fileType: z.enum(FILE_TYPES),
    category: z.enum(FILE_CATEGORIES),
    state: z.enum(['pending', 'processing', 'ready', 'failed']),
    error: nullable(z.string()),
    bronzeKey: nullable(z.string()),
    externalUrl: nullable(z.string()),
    contentType: nullable(z.string()),
    source: z.string(),
    parentFileId: nullable(z.string()),
    jobId: nullable(z.string()),
    originRegion: z.string(),
    silverTranscriptKey: nullable(z.string()),
    silverAudioKey: nullable(z.string()),
    goldChunkKey: nullable(z.string()),
    length: nullable(z.number()),
    size: nullable(z.number()),
    tokens: nullable(z.number()),
    numSpeakers: nullable(z.number()),
    hiddenFilesTotal: count,
    hiddenFilesCreated: count,
    hiddenFilesProcessed: count,
    hiddenFilesIngested: count,
    sourceKey: nullable(z.string()),
    contentHash: nullable(z.string()),
    validators: nullable(
      z.object({
        etag: z.string().optional(),
        lastModified: z.string().optional(),
        lastmod: z.string().optional(),
        textHash: z.string().optional(),
      }),
    ),
    stagedTextKey: nullable(z.string()),
    metadata: z.array(z.object({ key: z.string(), value: z.string() })).default([]),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
  }),
  { stored: { jobId: 'jobID', externalUrl: 'externalURI' } },
);

/** A re-sync's claim on a file and its last re-sync: attributes of the file item, outside FileRecord. */
const RESYNC_CLAIMED_AT = 'resyncClaimedAt';
const LAST_RESYNC_AT = 'lastResyncAt';

/** The counter attribute of the account's file source version item (keys.fileSourceVersion). */
const SOURCE_VERSION = 'version';

/** The source version an account's version item holds (0 before its first file). */
export const sourceVersionOf = (item: Item | undefined): number => Number(item?.[SOURCE_VERSION] ?? 0);

/** Files; hidden children of a sitemap or crawl are listed under their parent only. */
export class FileRepository implements FileStore {
  constructor(private readonly table: Table) {}

  async create(file: FileRecord): Promise<void> {
    await this.table.create(toItem(file));
    await this.raiseSourceVersion(file.accountId);
  }

  /** Records new files (fresh ids) in batched writes. */
  async createMany(files: readonly FileRecord[]): Promise<void> {
    await this.table.putMany(files.map(toItem));
    for (const accountId of new Set(files.map((file) => file.accountId))) await this.raiseSourceVersion(accountId);
  }

  async findBySource(accountId: string, sourceKey: string): Promise<FileRecord | undefined> {
    const items = await this.table.queryAll(keys.filesBySource(accountId), keys.sourceSortKey(sourceKey), 'gsi3');
    return readAll(fileItem, items).find((file) => file.sourceKey === sourceKey);
  }

  async listBySourcePrefix(accountId: string, prefix: string): Promise<FileRecord[]> {
    const items = await this.table.queryAll(keys.filesBySource(accountId), prefix, 'gsi3');
    return readAll(fileItem, items).filter((file) => file.sourceKey?.startsWith(prefix));
  }

  async *readyWebSources(): AsyncGenerator<Array<Pick<FileRecord, 'accountId' | 'id'>>> {
    const types = Object.fromEntries([...WEB_FILE_TYPES].map((type, i) => [`:web${i}`, type]));
    const filter = {
      // top-level files are listed under their account (gsi1); pages of a site sit under their parent
      expression: `#kind = :file AND #state = :ready AND attribute_exists(#listed) AND #fileType IN (${Object.keys(types).join(', ')})`,
      names: { '#kind': 'kind', '#state': 'state', '#listed': 'gsi1pk', '#fileType': 'fileType' },
      values: { ':file': 'file', ':ready': 'ready', ...types },
    };
    for await (const items of this.table.scanPages(filter, ['accountId', 'id'])) {
      yield items.map((item) => ({ accountId: String(item.accountId), id: String(item.id) }));
    }
  }

  async get(accountId: string, id: string): Promise<FileRecord | undefined> {
    const item = await this.table.get(keys.file(accountId, id));
    return item ? fileItem.read(item) : undefined;
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<Map<string, FileRecord>> {
    const items = await this.table.getMany([...new Set(ids)].map((id) => keys.file(accountId, id)));
    return new Map(readAll(fileItem, items).map((file) => [file.id, file]));
  }

  async list(accountId: string, category: FileCategory | undefined, page: PageRequest): Promise<Page<FileRecord>> {
    const query = category
      ? { index: 'gsi2' as const, partition: keys.filesOfCategory(accountId, category) }
      : { index: 'gsi1' as const, partition: keys.filesOf(accountId) };
    const result = await this.table.queryPage({ ...query, scope: `files|${query.partition}`, page });
    return { ...result, items: readAll(fileItem, result.items) };
  }

  async update(
    accountId: string,
    id: string,
    changes: Partial<FileRecord>,
    whenState?: FileRecord['state'][],
    whenContentHash?: string,
  ): Promise<FileRecord | undefined> {
    const condition = allOf([whenState ? stateIn(whenState) : undefined, whenContentHash ? contentIs(whenContentHash) : undefined]);
    const listing = changes.category ? { gsi2pk: keys.filesOfCategory(accountId, changes.category) } : {};
    const item = await this.table.update(keys.file(accountId, id), { ...fileItem.changes(changes), ...listing }, condition);
    if (item && changesSourceFields(changes)) await this.raiseSourceVersion(accountId);
    return item ? fileItem.read(item) : undefined;
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.table.delete(keys.file(accountId, id));
    await this.raiseSourceVersion(accountId);
  }

  async deleteMany(accountId: string, ids: readonly string[]): Promise<void> {
    await this.table.deleteMany(ids.map((id) => keys.file(accountId, id)));
    if (ids.length > 0) await this.raiseSourceVersion(accountId);
  }

  async sourceVersion(accountId: string): Promise<number> {
    return sourceVersionOf(await this.table.get(keys.fileSourceVersion(accountId)));
  }

  /** After a write of source fields: one atomic ADD on the account's version item (created at the first). */
  private async raiseSourceVersion(accountId: string): Promise<void> {
    await this.table.increment(keys.fileSourceVersion(accountId), SOURCE_VERSION, 1, { kind: 'fileSourceVersion' });
  }

  async claimResync(accountId: string, id: string, at: ResyncClaim): Promise<ResyncClaimResult> {
    const names = { '#state': 'state', '#claimed': RESYNC_CLAIMED_AT, '#last': LAST_RESYNC_AT };
    const claim = { expression: 'SET #claimed = :now, #last = :now', names, values: { ':now': at.now } };
    const condition = {
      expression:
        '#state = :ready AND (attribute_not_exists(#claimed) OR #claimed < :staleBefore) AND (attribute_not_exists(#last) OR #last < :intervalBefore)',
      names,
      values: { ':ready': 'ready', ':staleBefore': at.staleBefore, ':intervalBefore': at.intervalBefore },
    };
    try {
      if (await this.table.apply(keys.file(accountId, id), claim, condition)) return { claimed: true };
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
    const held = await this.table.get(keys.file(accountId, id));
    const timeOf = (value: unknown) => (typeof value === 'string' ? value : null);
    return { claimed: false, claimedAt: timeOf(held?.[RESYNC_CLAIMED_AT]), lastResyncAt: timeOf(held?.[LAST_RESYNC_AT]) };
  }

  async endResync(accountId: string, id: string): Promise<void> {
    await this.table.apply(keys.file(accountId, id), {
      expression: 'REMOVE #claimed',
      names: { '#claimed': RESYNC_CLAIMED_AT },
      values: {},
    });
  }

  async increment(
    accountId: string,
    id: string,
    counter: 'hiddenFilesCreated' | 'hiddenFilesProcessed' | 'hiddenFilesIngested',
    by: number,
  ): Promise<FileRecord | undefined> {
    const item = await this.table.apply(keys.file(accountId, id), {
      expression: 'ADD #counter :by',
      names: { '#counter': counter },
      values: { ':by': by },
    });
    return item ? fileItem.read(item) : undefined;
  }

  async listChildren(accountId: string, parentId: string): Promise<FileRecord[]> {
    return readAll(fileItem, await this.table.queryAll(keys.childFilesOf(accountId, parentId), undefined, 'gsi3'));
  }
}

function toItem(file: FileRecord) {
  const order = byCreation(file.createdAt, file.id);
  const listing = file.parentFileId
    ? { gsi3pk: keys.childFilesOf(file.accountId, file.parentFileId), gsi3sk: order }
    : {
        gsi1pk: keys.filesOf(file.accountId),
        gsi1sk: order,
        gsi2pk: keys.filesOfCategory(file.accountId, file.category),
        gsi2sk: order,
        ...(file.sourceKey ? { gsi3pk: keys.filesBySource(file.accountId), gsi3sk: keys.sourceSortKey(file.sourceKey) } : {}),
      };
  return itemOf(fileItem, { ...keys.file(file.accountId, file.id), ...listing }, file);
}

function contentIs(contentHash: string): QueryFilter {
  return { expression: '#contentHash = :contentHash', names: { '#contentHash': 'contentHash' }, values: { ':contentHash': contentHash } };
}

function allOf(conditions: Array<QueryFilter | undefined>): QueryFilter | undefined {
  const present = conditions.filter((c): c is QueryFilter => c !== undefined);
  if (present.length === 0) return undefined;
  return {
    expression: present.map((c) => c.expression).join(' AND '), // each is a comparison or IN: no parentheses needed
    names: Object.assign({}, ...present.map((c) => c.names)),
    values: Object.assign({}, ...present.map((c) => c.values)),
  };
}

function stateIn(states: string[]) {
  const values = Object.fromEntries(states.map((state, i) => [`:st${i}`, state]));
  return { expression: `#state IN (${Object.keys(values).join(', ')})`, names: { '#state': 'state' }, values };
}
