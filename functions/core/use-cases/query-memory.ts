/**
 * GET /memory/ as the route runs it: retrieval (retrieve-memory.ts), then, for `assisted=true` with an
 * answer model configured and something relevant found, a grounded answer in front of the extracts
 * (answers/grounded-answer.ts). Without a model, with `assisted=false`, or with an empty payload no
 * model is called and the answer is retrieval's as is.
 */
import type { AnswerGenerator } from '../answers/port';
import { type AnswerReport, groundedAnswer, type TokenBudget } from '../answers/grounded-answer';
import type { IdGenerator } from '../ports';
import { type RetrievalAnswer, type RetrievalDeps, type RetrievalQuery, retrieveFromMemory } from './retrieve-memory';

export interface QueryMemoryDeps extends RetrievalDeps {
  /** The configured answer model, or null (made on first use). */
  answers: { generator: () => AnswerGenerator | null };
  accounts: TokenBudget;
  ids: IdGenerator;
}

export interface MemoryQueryResult {
  /** The retrieval result for the wire. */
  answer: RetrievalAnswer;
  /** How the grounded answer went, when one was asked of the model. */
  report?: AnswerReport;
}

export async function queryMemory(deps: QueryMemoryDeps, accountId: string, request: RetrievalQuery): Promise<MemoryQueryResult> {
  const retrieved = await retrieveFromMemory(deps, accountId, request);
  const generator = request.assisted ? deps.answers.generator() : null;
  if (!generator || retrieved.payload.length === 0) return { answer: retrieved };
  const grounded = await groundedAnswer({ generator, budget: deps.accounts, ids: deps.ids }, accountId, request.query, retrieved.payload);
  return { answer: { ...retrieved, payload: grounded.payload }, report: grounded.report };
}
