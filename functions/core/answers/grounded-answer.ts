/**
 * A grounded answer over a retrieval payload (`assisted=true` with a model configured):
 *
 * 1. the payload's extracts become the evidence, numbered from 1;
 * 2. the most the call may cost (prompt estimate + output limit) is reserved from the account's token
 *    budget in one conditional write; if the budget cannot cover it, no call is made;
 * 3. the model answers, citing the evidence as `[n]` (checked by citations.ts: at least one citation,
 *    all within the evidence);
 * 4. the reservation is settled: what the call did not use is given back (what it used beyond it is
 *    charged), once, as an ingestion settles its own;
 * 5. a grounded answer becomes payload[0] with the best evidence score, followed by the evidence, so
 *    `[k]` in the answer is payload[k]; otherwise (budget, model failure, time-out, refusal, no or
 *    out-of-range citations) the payload stays the extracts. The report says which, and why.
 */
import type { AccountStore, IdGenerator } from '../ports';
import { checkCitations } from './citations';
import { AnswerModelError, type AnswerGenerator, type EvidenceItem } from './ports';

export type TokenBudget = Pick<AccountStore, 'reserveTokens' | 'refundTokens' | 'settleRefund'>;

export interface GroundedAnswerDeps {
  generator: AnswerGenerator;
  budget: TokenBudget;
  ids: IdGenerator;
}

export interface PayloadEntry {
  content: string;
  score: number;
}

/** What happened, for logs and metrics (never sent to the client). */
export interface AnswerReport {
  model: string;
  outcome: 'answered' | 'fell-back';
  /** Why the extracts were returned instead. */
  reason?: string;
  tokensUsed: number;
  tokensReserved: number;
  evidence: number;
  citations: number[];
}

export interface GroundedAnswer {
  payload: PayloadEntry[];
  report: AnswerReport;
}

/** Answers `query` from `evidence` (non-empty, best first); see the module comment. */
export async function groundedAnswer(
  deps: GroundedAnswerDeps,
  accountId: string,
  query: string,
  evidence: readonly PayloadEntry[],
): Promise<GroundedAnswer> {
  const items: EvidenceItem[] = evidence.map((entry, index) => ({ n: index + 1, content: entry.content }));
  const base = { model: deps.generator.name, evidence: items.length, citations: [] as number[] };
  const fallBack = (reason: string, tokensUsed: number, tokensReserved: number): GroundedAnswer => ({
    payload: [...evidence],
    report: { ...base, outcome: 'fell-back', reason, tokensUsed, tokensReserved },
  });

  const reserved = deps.generator.maxTokens(query, items);
  if (!(await deps.budget.reserveTokens(accountId, reserved))) {
    return fallBack(`the account's token budget cannot cover an answer (${reserved} tokens)`, 0, 0);
  }
  let used = 0;
  try {
    const generated = await deps.generator.answer(query, items);
    used = generated.tokensUsed;
    const check = checkCitations(generated.text, items.length);
    if (!check.ok) return fallBack(`${deps.generator.name}: ${check.problem}`, used, reserved);
    const best = evidence[0]?.score ?? 0;
    return {
      payload: [{ content: generated.text, score: best }, ...evidence],
      report: { ...base, outcome: 'answered', tokensUsed: used, tokensReserved: reserved, citations: check.citations },
    };
  } catch (error) {
    if (!(error instanceof AnswerModelError)) throw error;
    used = error.tokensUsed;
    return fallBack(error.message, used, reserved);
  } finally {
    await settleReservation(deps, accountId, reserved - used);
  }
}

/** Gives back the unused part of a model call's reservation (a negative amount charges the excess), once. */
export async function settleReservation(
  deps: Pick<GroundedAnswerDeps, 'budget' | 'ids'>,
  accountId: string,
  unused: number,
): Promise<void> {
  if (unused === 0) return;
  const settlement = `answer-${deps.ids.uuid()}`;
  await deps.budget.refundTokens(accountId, unused, settlement);
  await deps.budget.settleRefund(accountId, settlement);
}
