import { WEB_FILE_TYPES } from '../../../core/files/file-kinds';
import type { FileCategory, FileRecord, Page, PageRequest } from '../../../core/model';
import type { FileStore } from '../../../core/ports';
import { byCreation, keys } from '../keys';
import type { Item, QueryFilter, Table } from '../table';

/** Files; hidden children of a sitemap or crawl are listed under their parent only. */
export class FileRepository implements FileStore {
  constructor(private readonly table: Table) {}

  async create(file: FileRecord): Promise<void> {
    await this.table.create(toItem(file));
  }

  /** Records new files (fresh ids) in batched writes. */
  async createMany(files: readonly FileRecord[]): Promise<void> {
    await this.table.putMany(files.map(toItem));
  }

  async findBySource(accountId: string, sourceKey: string): Promise<FileRecord | undefined> {
    const items = await this.table.queryAll(keys.filesBySource(accountId), keys.sourceSortKey(sourceKey), 'gsi3');
    return items.map(toFile).find((file) => file.sourceKey === sourceKey);
  }

  async listBySourcePrefix(accountId: string, prefix: string): Promise<FileRecord[]> {
    const items = await this.table.queryAll(keys.filesBySource(accountId), prefix, 'gsi3');
    return items.map(toFile).filter((file) => file.sourceKey?.startsWith(prefix));
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
    return item ? toFile(item) : undefined;
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<Map<string, FileRecord>> {
    const items = await this.table.getMany([...new Set(ids)].map((id) => keys.file(accountId, id)));
    return new Map(items.map(toFile).map((file) => [file.id, file]));
  }

  async list(accountId: string, category: FileCategory | undefined, page: PageRequest): Promise<Page<FileRecord>> {
    const query = category
      ? { index: 'gsi2' as const, partition: keys.filesOfCategory(accountId, category) }
      : { index: 'gsi1' as const, partition: keys.filesOf(accountId) };
    const result = await this.table.queryPage({ ...query, scope: `files|${query.partition}`, page });
    return { ...result, items: result.items.map(toFile) };
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
    const item = await this.table.update(keys.file(accountId, id), { ...changes, ...listing }, condition);
    return item ? toFile(item) : undefined;
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.table.delete(keys.file(accountId, id));
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
    return item ? toFile(item) : undefined;
  }

  async listChildren(accountId: string, parentId: string): Promise<FileRecord[]> {
    return (await this.table.queryAll(keys.childFilesOf(accountId, parentId), undefined, 'gsi3')).map(toFile);
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
  return { ...keys.file(file.accountId, file.id), ...listing, kind: 'file', ...file };
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

const FILE_FIELDS: ReadonlyArray<keyof FileRecord> = [
  'id', 'accountId', 'name', 'extension', 'fileType', 'category', 'state', 'error', 'bronzeKey', 'externalURI',
  'contentType', 'source', 'parentFileId', 'jobID', 'originRegion', 'silverTranscriptKey',
  'silverAudioKey', 'goldChunkKey', 'length', 'size', 'tokens',
  'numSpeakers', 'hiddenFilesTotal', 'hiddenFilesCreated', 'hiddenFilesProcessed', 'hiddenFilesIngested',
  'sourceKey', 'contentHash', 'validators', 'createdAt', 'updatedAt',
];

function toFile(item: Item): FileRecord {
  const file: Record<string, unknown> = {};
  for (const field of FILE_FIELDS) file[field] = item[field] ?? null;
  for (const counter of ['hiddenFilesTotal', 'hiddenFilesCreated', 'hiddenFilesProcessed', 'hiddenFilesIngested']) {
    file[counter] = Number(item[counter] ?? 0);
  }
  return file as unknown as FileRecord;
}
