/**
 * GET /memory/ as the route runs it: retrieval (retrieve-memory.ts), then, for `assisted=true` with an
 * answer model configured and something relevant found, a grounded answer in front of the extracts
 * (answers/grounded-answer.ts). Without a model, with `assisted=false`, or with an empty payload no
 * model is called and the result is retrieval's as is.
 */
import type { AnswerGenerator } from '../answers/ports';
import { type AnswerReport, groundedAnswer, type TokenBudget } from '../answers/grounded-answer';
import type { IdGenerator } from '../ports';
import { type RetrievalResult, type RetrievalDeps, type RetrievalQuery, retrieveFromMemory } from './retrieve-memory';

export interface QueryMemoryDeps extends RetrievalDeps {
  /** The configured answer model, or null (made on first use). */
  answers: { generator: () => AnswerGenerator | null };
  accounts: TokenBudget;
  ids: IdGenerator;
}

export interface MemoryQueryResult {
  /** The retrieval result for the wire. */
  retrieval: RetrievalResult;
  /** How the grounded answer went, when one was asked of the model. */
  report?: AnswerReport;
}

export async function queryMemory(deps: QueryMemoryDeps, accountId: string, request: RetrievalQuery): Promise<MemoryQueryResult> {
  const retrieved = await retrieveFromMemory(deps, accountId, request);
  const generator = request.assisted ? deps.answers.generator() : null;
  if (!generator || retrieved.payload.length === 0) return { retrieval: retrieved };
  const grounded = await groundedAnswer({ generator, budget: deps.accounts, ids: deps.ids }, accountId, request.query, retrieved.payload);
  return { retrieval: { ...retrieved, payload: grounded.payload }, report: grounded.report };
}
