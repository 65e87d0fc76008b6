/**
 * The summary state as JSON (what the worker stores between updates): term entries as
 * `[term, count, sentences]` rows and each pooled sentence's terms as `[term, count]` rows, so no term
 * ever becomes an object key. Reading checks the shape and refuses anything else.
 */
import type { SummaryState } from './session-summary';

interface PooledJson {
  text: string;
  messageId: string;
  order: number;
  terms: Array<[string, number]>;
}

export interface SummaryStateJson {
  messages: number;
  sentences: number;
  terms: Array<[string, number, number]>;
  pool: PooledJson[];
}

export function summaryStateToJson(state: SummaryState): SummaryStateJson {
  return {
    messages: state.messages,
    sentences: state.sentences,
    terms: [...state.terms].map(([term, [count, sentences]]) => [term, count, sentences]),
    pool: state.pool.map((sentence) => ({ ...sentence, terms: [...sentence.terms] })),
  };
}

/** The state stored as `value`; throws a TypeError when it is not one. */
export function summaryStateFromJson(value: unknown): SummaryState {
  const json = value as Partial<SummaryStateJson> | null;
  if (!json || !isCount(json.messages) || !isCount(json.sentences) || !Array.isArray(json.terms) || !Array.isArray(json.pool)) {
    throw new TypeError('not a summary state');
  }
  const terms = new Map<string, [number, number]>();
  for (const row of json.terms) {
    if (!Array.isArray(row) || typeof row[0] !== 'string' || !isCount(row[1]) || !isCount(row[2])) throw new TypeError('bad term row');
    terms.set(row[0], [row[1], row[2]]);
  }
  const pool = json.pool.map((sentence) => {
    if (typeof sentence?.text !== 'string' || typeof sentence.messageId !== 'string' || !isCount(sentence.order)) {
      throw new TypeError('bad pooled sentence');
    }
    return { text: sentence.text, messageId: sentence.messageId, order: sentence.order, terms: new Map(sentence.terms) };
  });
  return { messages: json.messages, sentences: json.sentences, terms, pool };
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
