/**
 * `npm run kmem -- <command>`: operator commands.
 *   accounts create NAME            creates an account; its new API key is the last line of stdout
 *   accounts webhook-secret NAME    prints the account's webhook signing secret
 * Add `--table TABLE --region REGION` to act on a deployed stack's table instead of local data.
 */
import { parseArgs } from 'node:util';
import { KmemError } from '../functions/core/errors';
import { createAccount } from '../functions/core/use-cases/accounts';
import { openStores, type Target } from '../functions/local/store-session';

const USAGE = 'usage: kmem accounts create NAME | kmem accounts webhook-secret NAME  [--table TABLE --region REGION]';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { table: { type: 'string' }, region: { type: 'string' } },
  });
  const [group, command, name] = positionals;
  if (group !== 'accounts' || !command || !name || positionals.length !== 3) {
    console.error(USAGE);
    return 2;
  }
  const target: Target =
    values.table && values.region ? { kind: 'aws', tableName: values.table, region: values.region } : { kind: 'local' };
  const session = await openStores(target);
  console.error(`[kmem] using ${session.where}`);
  try {
    if (command === 'create') {
      const { account, apiKey } = await createAccount(session.deps, name);
      console.error(`[kmem] created account '${account.name}' (${account.id}); the key below is shown once`);
      console.log(apiKey);
      return 0;
    }
    if (command === 'webhook-secret') {
      const account = await session.deps.accounts.findByName(name);
      if (!account) {
        console.error(`[kmem] no account named '${name}'`);
        return 1;
      }
      console.log(account.webhookSecret);
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await session.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[kmem] ${error instanceof KmemError ? error.message : `failed: ${String(error)}`}`);
    process.exit(1);
  },
);
