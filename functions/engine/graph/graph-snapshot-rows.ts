/**
 * The compact stored form of what validity and profiles add to a graph snapshot (version 3): chunk times
 * and sources as one row per chunk of a file, and speaker statements as rows that leave out what their
 * chunk already says. The graph is written whole at every sync, so these parts are kept small:
 *
 * - a chunk's origin is `[time, source]`: `time` null when it has none; `source` null when it has none, 0
 *   when its chunk id names it (`msg:<source>`, a message's chunk);
 * - a statement is `[id, speaker, category, kind, slot, value, text, chunkId, validTo]`, `slot` '' for a
 *   multi-valued statement and `text` null when it is the row before's (one sentence, several statements:
 *   "I love tea and coffee"); its source and start are its chunk's unless the row carries them after
 *   `validTo` (`[…, sourceId, validFrom]`).
 */
import type { GraphChunk, SpeakerStatement } from './graph-model';

export type ChunkOriginRow = [time: string | null, source: string | null | 0];

export type StatementRow = [
  id: string,
  speaker: string,
  category: SpeakerStatement['category'],
  kind: string,
  slot: string,
  value: string,
  text: string | null,
  chunkId: string,
  validTo: string | null,
  sourceId?: string,
  validFrom?: string,
];

const MESSAGE_CHUNK = 'msg:';

/** The origin row of a chunk. */
export function chunkOriginRow(chunk: GraphChunk): ChunkOriginRow {
  const named = chunk.sourceId !== undefined && chunk.id === MESSAGE_CHUNK + chunk.sourceId;
  return [chunk.time ?? null, named ? 0 : (chunk.sourceId ?? null)];
}

/** `chunk` with the time and source its origin row gives it (plain literals: restore runs at every sync). */
export function withOrigin(chunk: GraphChunk, row: ChunkOriginRow | undefined): GraphChunk {
  const { id, fileId, index } = chunk;
  if (!row) return { id, fileId, index };
  const [time, source] = row;
  const sourceId = source === 0 ? id.slice(MESSAGE_CHUNK.length) : source;
  if (time === null) return sourceId === null ? { id, fileId, index } : { id, fileId, index, sourceId };
  return sourceId === null ? { id, fileId, index, time } : { id, fileId, index, time, sourceId };
}

/** A file's statements as rows; `chunkOf` gives a statement's chunk (its time and source). */
export function statementRows(
  statements: readonly SpeakerStatement[],
  chunkOf: (chunkId: string) => GraphChunk | undefined,
): StatementRow[] {
  let previousText: string | undefined;
  return statements.map((statement) => {
    const chunk = chunkOf(statement.chunkId);
    const text = statement.text === previousText ? null : statement.text;
    previousText = statement.text;
    const row: StatementRow = [
      statement.id,
      statement.speaker,
      statement.category,
      statement.kind,
      statement.slot ?? '',
      statement.value,
      text,
      statement.chunkId,
      statement.validTo,
    ];
    const ownOrigin = statement.sourceId !== chunk?.sourceId || statement.validFrom !== (chunk?.time ?? '');
    if (ownOrigin) row.push(statement.sourceId, statement.validFrom);
    return row;
  });
}

/** The statements of a file's rows (see the module comment). */
export function statementsOfRows(rows: readonly StatementRow[], chunkOf: (chunkId: string) => GraphChunk | undefined): SpeakerStatement[] {
  let previousText = '';
  const statements: SpeakerStatement[] = [];
  for (const [id, speaker, category, kind, slot, value, text, chunkId, validTo, sourceId, validFrom] of rows) {
    const chunk = sourceId === undefined || validFrom === undefined ? chunkOf(chunkId) : undefined;
    previousText = text ?? previousText;
    const from = validFrom ?? chunk?.time ?? '';
    const source = sourceId ?? chunk?.sourceId ?? '';
    statements.push(
      slot === ''
        ? { id, speaker, category, kind, value, text: previousText, chunkId, sourceId: source, validFrom: from, validTo }
        : { id, speaker, category, kind, slot, value, text: previousText, chunkId, sourceId: source, validFrom: from, validTo },
    );
  }
  return statements;
}
