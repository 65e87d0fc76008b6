/**
 * Extraction is charged to the account's token budget: every whole second a file's extraction takes
 * (OCR, speech recognition, media decoding, a large document) costs KMEM_EXTRACTION_TOKENS_PER_SECOND
 * tokens, whether it succeeded or not, and an account whose budget is used up gets no more extraction
 * until it is raised. Extractions under a second (plain text, small documents) cost nothing. The charge may take the budget below zero by the last file's cost.
 */
import { emitMetric } from '../metrics';
import { extractionBudgetUsedUp } from '../extraction-budget';
import type { Account, FileRecord } from '../model';
import type { AccountStore, Clock } from '../ports';
import { FileProcessingError } from './ports';

export interface ExtractionChargeDeps {
  accounts: Pick<AccountStore, 'get' | 'chargeTokens'>;
  clock: Clock;
  config: { limits: { extractionTokensPerSecond: number } };
}

/** Tokens an extraction of `seconds` costs. */
function extractionTokens(seconds: number, tokensPerSecond: number): number {
  return Math.floor(Math.max(0, seconds)) * tokensPerSecond;
}

/** Runs `extract` of the file if its account's budget allows, and charges (and reports) the time it took. */
export async function chargedExtraction<T>(
  deps: ExtractionChargeDeps,
  file: Pick<FileRecord, 'accountId' | 'id' | 'fileType'>,
  extract: () => Promise<T>,
): Promise<{ result: T; seconds: number; tokens: number }> {
  const { accountId } = file;
  const rate = deps.config.limits.extractionTokensPerSecond;
  if (rate > 0) {
    const account = await deps.accounts.get(accountId);
    if (account && extractionBudgetUsedUp(deps, account)) {
      throw new FileProcessingError(
        "the account's token budget is used up (extraction time is charged to it); raise the budget and create the file again",
      );
    }
  }
  const started = deps.clock.now().getTime();
  const charge = async () => {
    const seconds = (deps.clock.now().getTime() - started) / 1000;
    const tokens = rate > 0 ? extractionTokens(seconds, rate) : 0;
    if (tokens > 0) await deps.accounts.chargeTokens(accountId, tokens);
    const properties = { accountId, fileId: file.id, tokens };
    emitMetric('ExtractionSeconds', seconds, { dimension: file.fileType, properties });
    if (tokens > 0) emitMetric('TokensCharged', tokens, { dimension: 'extraction', properties });
    return { seconds, tokens };
  };
  let result: T;
  try {
    result = await extract();
  } catch (error) {
    await charge();
    throw error;
  }
  return { result, ...(await charge()) };
}

/**
 * The accounts as a run of many extractions (a bulk import's members) reads them: each account once, and
 * again only after a charge changed its budget. So an import of small members reads the budget once, not
 * once a member, and one whose members are charged still stops as soon as the budget is used up.
 */
export function accountsReadBetweenCharges(accounts: ExtractionChargeDeps['accounts']): ExtractionChargeDeps['accounts'] {
  const reads = new Map<string, Promise<Account | undefined>>();
  return {
    get(accountId) {
      let read = reads.get(accountId);
      if (!read) reads.set(accountId, (read = accounts.get(accountId)));
      return read;
    },
    async chargeTokens(accountId, tokens) {
      await accounts.chargeTokens(accountId, tokens);
      reads.delete(accountId);
    },
  };
}
