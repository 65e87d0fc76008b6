/**
 * The compact form of a graph segment's speaker statements (format 1 metadata `speakers`, `statementKinds`,
 * `statementRows`, and the files of a segment delta: graph-segment-delta.ts): statements as objects repeated every
 * key. A row is `[speaker, kind, text, chunkId, source, validFrom, validTo]`:
 *
 * - `speaker`: an index into `speakers`; `kind`: an index into `statementKinds`, `[category, kind]` pairs;
 * - `text`: null when it is the row before's sentence (one sentence, several statements);
 * - `source`: 0 when the chunk id names it (`msg:<source>`, a message's chunk), else the source id.
 *
 * Segments written before hold `statements` as objects; they read as before.
 */
import type { StatementRecord } from './graph-segment';

type Category = StatementRecord['category'];

type SegmentStatementRow = [
  speaker: number,
  kind: number,
  text: string | null,
  chunkId: string,
  source: string | 0,
  validFrom: string,
  validTo: string | null,
];

/** Statements as rows, with the speakers and kinds the rows index. */
export interface SegmentStatementTable {
  speakers: string[];
  statementKinds: Array<[category: Category, kind: string]>;
  statementRows: SegmentStatementRow[];
}

const MESSAGE_CHUNK = 'msg:';

/** The rows of `statements` (a segment delta's files' at every sync: plain loops, no per-row keys built). */
export function statementTable(statements: readonly StatementRecord[]): SegmentStatementTable {
  const table: SegmentStatementTable = { speakers: [], statementKinds: [], statementRows: [] };
  const speakerOrdinal = new Map<string, number>();
  const kindOrdinal: Record<Category, Map<string, number>> = { fact: new Map(), preference: new Map() };
  let previousText: string | undefined;
  for (const statement of statements) {
    let speaker = speakerOrdinal.get(statement.speaker);
    if (speaker === undefined) speakerOrdinal.set(statement.speaker, (speaker = table.speakers.push(statement.speaker) - 1));
    const kinds = kindOrdinal[statement.category];
    let kind = kinds.get(statement.kind);
    if (kind === undefined) kinds.set(statement.kind, (kind = table.statementKinds.push([statement.category, statement.kind]) - 1));
    const { text, chunkId, sourceId } = statement;
    const source = chunkId.length === MESSAGE_CHUNK.length + sourceId.length && chunkId === MESSAGE_CHUNK + sourceId ? 0 : sourceId;
    table.statementRows.push([speaker, kind, text === previousText ? null : text, chunkId, source, statement.validFrom, statement.validTo]);
    previousText = text;
  }
  return table;
}

/** The statements of a segment's rows; throws on a row naming no speaker or kind of the segment. */
export function statementsOfTable(table: SegmentStatementTable): StatementRecord[] {
  let previousText = '';
  return table.statementRows.map(([speakerIndex, kindIndex, text, chunkId, source, validFrom, validTo]) => {
    const speaker = table.speakers[speakerIndex];
    const kind = table.statementKinds[kindIndex];
    if (speaker === undefined || kind === undefined) throw new RangeError('graph segment: statement row out of range');
    previousText = text ?? previousText;
    const sourceId = source === 0 ? chunkId.slice(MESSAGE_CHUNK.length) : source;
    return { speaker, category: kind[0], kind: kind[1], text: previousText, chunkId, sourceId, validFrom, validTo };
  });
}
