/** The operator's command that gives an account its import sources (the rule itself: core/files/import-sources.ts). */
import { artefactBucketRefusal, type ImportSourceRules, parseImportSource } from '../files/import-sources';
import { BadRequestError, NotFoundError } from '../errors';
import type { Account } from '../model';
import type { AccountStore } from '../ports';

export interface ImportSourcesDeps {
  accounts: Pick<AccountStore, 'findByName' | 'setImportSources'>;
  config: { imports: ImportSourceRules };
}

/** The operator's command: sets the account's import sources (none: the account imports from no bucket). */
export async function setImportSources(deps: ImportSourcesDeps, name: string, pairs: readonly string[]): Promise<Account> {
  const account = await deps.accounts.findByName(name);
  if (!account) throw NotFoundError.of('account', name);
  for (const pair of pairs) {
    const refusal = artefactBucketRefusal(deps.config.imports, parseImportSource(pair).bucket);
    if (refusal) throw BadRequestError.forField('importSources', refusal);
  }
  const importSources = [...new Set(pairs)];
  await deps.accounts.setImportSources(account.id, importSources);
  return { ...account, importSources };
}
