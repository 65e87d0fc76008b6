/**
 * `npm run kmem -- <command>`: operator commands.
 *   accounts create NAME            creates an account; its new API key is the last line of stdout
 *   accounts webhook-secret NAME    prints the account's webhook signing secret
 *   mcp                             serves kmem's MCP tools over stdio, calling the API at KMEM_URL
 *                                   (default http://127.0.0.1:8080) with KMEM_API_KEY; logs go to stderr
 * Add `--table TABLE --region REGION` to act on a deployed stack's table instead of local data.
 */
import { parseArgs } from 'node:util';
import { KmemError } from '../functions/core/errors';
import { createAccount } from '../functions/core/use-cases/accounts';
import { openStores, type Target } from '../functions/local/store-session';
import { serveMcpOverStdio } from '../functions/mcp/stdio';

const USAGE = 'usage: kmem accounts create NAME | kmem accounts webhook-secret NAME  [--table TABLE --region REGION] | kmem mcp';

/** Main's answer while the MCP server runs: the process lives until stdin closes. */
const SERVING = 'serving';

async function main(): Promise<number | typeof SERVING> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { table: { type: 'string' }, region: { type: 'string' } },
  });
  if (positionals.length === 1 && positionals[0] === 'mcp') return serveMcp();
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

function serveMcp(): number | typeof SERVING {
  const url = process.env.KMEM_URL ?? 'http://127.0.0.1:8080';
  const apiKey = process.env.KMEM_API_KEY;
  if (!apiKey) {
    console.error('[kmem] mcp: set KMEM_API_KEY to the API key the tools use (and KMEM_URL to the API address)');
    return 2;
  }
  serveMcpOverStdio(url, apiKey);
  console.error(`[kmem] MCP server on stdio, calling ${url}`);
  return SERVING;
}

main().then(
  (code) => {
    if (code !== SERVING) process.exit(code);
  },
  (error: unknown) => {
    console.error(`[kmem] ${error instanceof KmemError ? error.message : `failed: ${String(error)}`}`);
    process.exit(1);
  },
);
