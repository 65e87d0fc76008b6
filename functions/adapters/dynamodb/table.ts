/**
 * Generic operations on the single table: conditional puts, gets, deletes, updates and paginated
 * queries with sealed page tokens. Repositories build on this; nothing else talks to DynamoDB.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../core/concurrency';
import { BadRequestError, ConflictError } from '../../core/errors';
import type { Page, PageRequest } from '../../core/model';
import type { CursorSealer, Direction, Position } from './cursor';
import type { IndexName, TableKey } from './keys';

const nonEmpty = (values: Record<string, unknown>) => (Object.keys(values).length ? values : undefined);
const nonEmptyNames = (names: Record<string, string>) => (Object.keys(names).length ? names : undefined);

export type Item = Record<string, unknown>;

export interface QueryFilter {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

export interface PageQuery {
  index: IndexName;
  partition: string;
  /** Identifies the listing (account, kind, filters) a page token belongs to. */
  scope: string;
  page: PageRequest;
  filter?: QueryFilter;
}

const FILTERED_READ_SIZE = 200;
/** Batch reads or writes one bulk read or change keeps in flight. */
const BATCH_CONCURRENCY = 4;

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: TableKey } };

export class Table {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    readonly name: string,
    private readonly cursors: () => Promise<CursorSealer>,
  ) {}

  async get(key: TableKey): Promise<Item | undefined> {
    const out = await this.client.send(new GetCommand({ TableName: this.name, Key: key, ConsistentRead: true }));
    return out.Item;
  }

  /** Reads many items (100 per request, consistently), retrying what DynamoDB leaves unprocessed; in no order. */
  async getMany(itemKeys: TableKey[]): Promise<Item[]> {
    const items: Item[] = [];
    const batches = Array.from({ length: Math.ceil(itemKeys.length / 100) }, (_, i) => itemKeys.slice(i * 100, i * 100 + 100));
    await mapConcurrently(batches, BATCH_CONCURRENCY, async (batch) => {
      let requested = batch.map((key) => ({ pk: key.pk, sk: key.sk }));
      while (requested.length) {
        const out = await this.client.send(
          new BatchGetCommand({ RequestItems: { [this.name]: { Keys: requested, ConsistentRead: true } } }),
        );
        items.push(...(out.Responses?.[this.name] ?? []));
        requested = (out.UnprocessedKeys?.[this.name]?.Keys ?? []) as typeof requested;
      }
    });
    return items;
  }

  /** Writes an item that must not exist yet; throws ConflictError when it does. */
  async create(item: Item & TableKey): Promise<void> {
    await this.conditional(() =>
      this.client.send(new PutCommand({ TableName: this.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })),
    );
  }

  async put(item: Item & TableKey): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.name, Item: item }));
  }

  /** Deletes the item; returns what was deleted, or undefined when nothing was there. */
  async delete(key: TableKey): Promise<Item | undefined> {
    const out = await this.client.send(new DeleteCommand({ TableName: this.name, Key: key, ReturnValues: 'ALL_OLD' }));
    return out.Attributes;
  }

  /**
   * Sets attributes of an existing item, optionally under an extra condition; returns the new item,
   * or undefined when the item does not exist. Throws ConflictError when the extra condition fails.
   */
  async update(key: TableKey, set: Record<string, unknown>, condition?: QueryFilter): Promise<Item | undefined> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const assignments = Object.entries(set).map(([field, value], i) => {
      names[`#s${i}`] = field;
      values[`:s${i}`] = value;
      return `#s${i} = :s${i}`;
    });
    return this.apply(key, { expression: `SET ${assignments.join(', ')}`, names, values }, condition);
  }

  /** Adds `by` to a counter, creating the item (with `extra` set) when absent; answers the new count. */
  async increment(key: TableKey, field: string, by: number, extra: Record<string, unknown> = {}): Promise<number> {
    const names: Record<string, string> = { '#n': field };
    const values: Record<string, unknown> = { ':by': by };
    const sets = Object.entries(extra).map(([name, value], i) => {
      names[`#e${i}`] = name;
      values[`:e${i}`] = value;
      return `#e${i} = if_not_exists(#e${i}, :e${i})`;
    });
    const out = await this.client.send(
      new UpdateCommand({
        TableName: this.name,
        Key: key,
        UpdateExpression: `ADD #n :by${sets.length ? ` SET ${sets.join(', ')}` : ''}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.[field] ?? by);
  }

  /** Runs an update expression on an existing item (see `update` for the answers). */
  async apply(key: TableKey, update: QueryFilter, condition?: QueryFilter): Promise<Item | undefined> {
    const exists = 'attribute_exists(#pk)';
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.name,
          Key: key,
          UpdateExpression: update.expression,
          ConditionExpression: condition ? `${exists} AND (${condition.expression})` : exists,
          ExpressionAttributeNames: { '#pk': 'pk', ...update.names, ...condition?.names },
          ExpressionAttributeValues: nonEmpty({ ...update.values, ...condition?.values }),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return out.Attributes;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // DynamoDB returns the item that failed the check; servers that do not (dynalite) get a read.
      const existed = error.Item ?? (condition ? await this.get(key) : undefined);
      if (!existed) return undefined;
      throw new ConflictError('condition failed', { cause: error });
    }
  }

  /**
   * Every item of a partition (optionally those whose sort key starts with `prefix`), in sort order; read
   * consistently from the table, eventually from an index.
   */
  async queryAll(partition: string, prefix?: string, index?: IndexName): Promise<Item[]> {
    const pk = index ? `${index}pk` : 'pk';
    const sk = index ? `${index}sk` : 'sk';
    return this.queryEvery({
      IndexName: index,
      ConsistentRead: index === undefined, // the table itself can read its latest writes; an index cannot
      KeyConditionExpression: prefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
      ExpressionAttributeNames: prefix ? { '#pk': pk, '#sk': sk } : { '#pk': pk },
      ExpressionAttributeValues: prefix ? { ':pk': partition, ':prefix': prefix } : { ':pk': partition },
    });
  }

  /** The items of a partition whose sort keys lie between `from` and `to`, inclusive, in sort order. */
  async queryBetween(partition: string, from: string, to: string): Promise<Item[]> {
    return this.queryEvery({
      ConsistentRead: true,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': partition, ':from': from, ':to': to },
    });
  }

  /**
   * The items of the whole table matching `filter`, a page (1 MB read) at a time, with only `fields`. A
   * Scan reads every item: for rare sweeps (a scheduled re-sync), never on a request's path.
   */
  async *scanPages(filter: QueryFilter, fields: readonly string[]): AsyncGenerator<Item[]> {
    const projection = Object.fromEntries(fields.map((field, i) => [`#p${i}`, field]));
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.client.send(
        new ScanCommand({
          TableName: this.name,
          FilterExpression: filter.expression,
          ProjectionExpression: Object.keys(projection).join(', '),
          ExpressionAttributeNames: { ...filter.names, ...projection },
          ExpressionAttributeValues: nonEmpty(filter.values),
          ExclusiveStartKey: start,
        }),
      );
      if (out.Items?.length) yield out.Items;
      start = out.LastEvaluatedKey;
    } while (start);
  }

  /** Every item a query matches, page after page. */
  private async queryEvery(query: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Item[]> {
    const items: Item[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.client.send(new QueryCommand({ ...query, TableName: this.name, ExclusiveStartKey: start }));
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  /** One page of a listing, in creation order, with tokens for the pages on either side. */
  async queryPage(query: PageQuery): Promise<Page<Item>> {
    const sealer = await this.cursors();
    const { direction, position } = this.startOf(query, sealer);
    const collected = await this.collect(query, direction, position);
    const hasMore = collected.length > query.page.limit;
    const window = collected.slice(0, query.page.limit);
    const items = direction === 'next' ? window : window.reverse();
    const first = items[0];
    const last = items[items.length - 1];
    const seal = (d: Direction, p: Position): string => sealer.seal(query.scope, d, p);

    if (direction === 'next') {
      return {
        items,
        nextToken: hasMore && last ? seal('next', this.positionOf(query.index, last)) : null,
        previousToken: position ? seal('previous', first ? this.positionOf(query.index, first) : position) : null,
      };
    }
    return {
      items,
      nextToken: seal('next', last ? this.positionOf(query.index, last) : (position as Position)),
      previousToken: hasMore && first ? seal('previous', this.positionOf(query.index, first)) : null,
    };
  }

  private startOf(query: PageQuery, sealer: CursorSealer): { direction: Direction; position?: Position } {
    const { nextToken, previousToken } = query.page;
    if (nextToken && previousToken) {
      throw BadRequestError.forField('nextToken', 'cannot be combined with previousToken');
    }
    if (previousToken) {
      return { direction: 'previous', position: sealer.open('previousToken', previousToken, query.scope, 'previous') };
    }
    if (nextToken) return { direction: 'next', position: sealer.open('nextToken', nextToken, query.scope, 'next') };
    return { direction: 'next' };
  }

  /** Reads until limit + 1 matching items are found (one more tells whether a further page exists). */
  private async collect(query: PageQuery, direction: Direction, position?: Position): Promise<Item[]> {
    const wanted = query.page.limit + 1;
    const found: Item[] = [];
    let start: Position | undefined = position;
    do {
      const input: QueryCommandInput = {
        TableName: this.name,
        IndexName: query.index,
        KeyConditionExpression: '#ipk = :ipk',
        ExpressionAttributeNames: { '#ipk': `${query.index}pk`, ...query.filter?.names },
        ExpressionAttributeValues: { ':ipk': query.partition, ...query.filter?.values },
        ScanIndexForward: direction === 'next',
        Limit: query.filter ? FILTERED_READ_SIZE : wanted - found.length,
        ExclusiveStartKey: start,
        FilterExpression: query.filter?.expression,
      };
      const out = await this.client.send(new QueryCommand(input));
      found.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey as Position | undefined;
    } while (start && found.length < wanted);
    return found.slice(0, wanted);
  }

  private positionOf(index: IndexName, item: Item): Position {
    const position: Position = {};
    for (const field of ['pk', 'sk', `${index}pk`, `${index}sk`]) position[field] = String(item[field]);
    return position;
  }

  /** Deletes many items, 25 per request, retrying what DynamoDB leaves unprocessed. */
  async deleteMany(itemKeys: TableKey[]): Promise<void> {
    await this.writeMany(itemKeys.map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } })));
  }

  /** Writes many whole items (unconditionally), 25 per request. */
  async putMany(items: Array<Item & TableKey>): Promise<void> {
    await this.writeMany(items.map((item) => ({ PutRequest: { Item: item } })));
  }

  private async writeMany(writes: WriteRequest[]): Promise<void> {
    const batches = Array.from({ length: Math.ceil(writes.length / 25) }, (_, i) => writes.slice(i * 25, i * 25 + 25));
    await mapConcurrently(batches, BATCH_CONCURRENCY, async (batch) => {
      let requests = batch;
      while (requests.length) {
        const out = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.name]: requests } }));
        requests = (out.UnprocessedItems?.[this.name] ?? []) as WriteRequest[];
      }
    });
  }

  /**
   * Sets attributes of an item, creating it if needed, when `condition` holds; answers the item as it was
   * before (undefined: there was none), or `'refused'` when the condition failed.
   */
  async exchange(key: TableKey, set: Record<string, unknown>, condition: QueryFilter): Promise<{ before: Item | undefined } | 'refused'> {
    const names: Record<string, string> = { ...condition.names };
    const values: Record<string, unknown> = { ...condition.values };
    const assignments = Object.entries(set).map(([field, value], i) => {
      names[`#x${i}`] = field;
      values[`:x${i}`] = value;
      return `#x${i} = :x${i}`;
    });
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.name,
          Key: key,
          UpdateExpression: `SET ${assignments.join(', ')}`,
          ConditionExpression: condition.expression,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: nonEmpty(values),
          ReturnValues: 'ALL_OLD',
        }),
      );
      return { before: out.Attributes };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'refused';
      throw error;
    }
  }

  /**
   * Runs an update expression on an item, creating it if needed, when `condition` (if any) holds; answers
   * the item after, or `'refused'` when the condition failed.
   */
  async upsert(key: TableKey, update: QueryFilter, condition?: QueryFilter): Promise<Item | 'refused'> {
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.name,
          Key: key,
          UpdateExpression: update.expression,
          ConditionExpression: condition?.expression,
          ExpressionAttributeNames: nonEmptyNames({ ...update.names, ...condition?.names }),
          ExpressionAttributeValues: nonEmpty({ ...update.values, ...condition?.values }),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes ?? { ...key };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'refused';
      throw error;
    }
  }

  private async conditional(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new ConflictError('item exists', { cause: error });
      throw error;
    }
  }
}
