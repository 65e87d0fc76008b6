/** The rule both files/create's processing and bulk import's request check apply to extraction (charged in ingest/extraction-charge.ts). */
import type { Account } from './model';

/** Whether the account may extract no more: extraction is charged and its budget is used up. */
export function extractionBudgetUsedUp(
  deps: { config: { limits: { extractionTokensPerSecond: number } } },
  account: Pick<Account, 'tokensRemaining'>,
): boolean {
  return deps.config.limits.extractionTokensPerSecond > 0 && account.tokensRemaining <= 0;
}
