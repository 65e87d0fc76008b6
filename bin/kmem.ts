/**
 * `npm run kmem -- <command>`: operator commands.
 *   accounts create NAME              creates an account; its new API key is the last line of stdout
 *   accounts webhook-secret NAME      prints the account's webhook signing secret
 *   accounts keys list NAME           the account's keys: id, created, revoked (never the keys themselves)
 *   accounts keys create NAME         a new key of the account (last line of stdout, shown once)
 *   accounts keys revoke NAME KEYID   the key stops working within KMEM_AUTH_CACHE_SECONDS
 *   accounts keys rotate NAME KEYID   a new key (last line of stdout), then the old one revoked
 *   accounts import-sources NAME [BUCKET/PREFIX ...]
 *                                     sets where the account's S3 imports may read (none: nowhere); prints them
 *   accounts delete NAME --yes [--settle SECONDS]
 *                                     erases the account: revokes its keys, deletes every table item under its
 *                                     keys and every object under its prefixes (sweeps twice, SECONDS apart:
 *                                     default KMEM_AUTH_CACHE_SECONDS + 10), then its record, name and keys
 *   mcp                               serves kmem's MCP tools over stdio, calling the API at KMEM_URL
 *                                     (default http://127.0.0.1:8080) with KMEM_API_KEY; logs go to stderr
 * Add `--table TABLE --region REGION` to act on a deployed stack's table instead of local data (and
 * `--bucket BUCKET`, its artefact bucket, for `accounts delete`).
 */
import { parseArgs } from 'node:util';
import { BadRequestError, KmemError } from '../functions/core/errors';
import { eraseAccount } from '../functions/core/use-cases/account-erasure';
import { createAccount } from '../functions/core/use-cases/accounts';
import { createKey, type KeySummary, listKeys, revokeKey, rotateKey } from '../functions/core/use-cases/api-key-lifecycle';
import { setImportSources } from '../functions/core/use-cases/import-sources';
import { openStores, type StoreSession, type Target } from '../functions/local/store-session';

const USAGE = [
  'usage: kmem accounts create NAME | kmem accounts webhook-secret NAME',
  '       kmem accounts keys list NAME | keys create NAME | keys revoke NAME KEYID | keys rotate NAME KEYID',
  '       kmem accounts import-sources NAME [BUCKET/PREFIX ...]',
  '       kmem accounts delete NAME --yes [--settle SECONDS]',
  '       [--table TABLE --region REGION [--bucket BUCKET]] | kmem mcp',
].join('\n');

/** The options a command may read besides its arguments. */
interface CommandOptions {
  yes: boolean;
  settle?: string;
  /** Whether a deployed stack's bucket was named (an AWS target without one has no objects to reach). */
  bucket: boolean;
  aws: boolean;
}

type Command = (session: StoreSession, args: string[], options: CommandOptions) => Promise<number>;

const describeKey = (key: KeySummary): string =>
  `${key.keyId}  created ${key.createdAt}${key.revokedAt ? `  revoked ${key.revokedAt}` : ''}`;

/** `args`: the arguments a command takes (at least, when `more` says it takes any number after them). */
const COMMANDS: Record<string, { args: number; more?: true; run: Command }> = {
  create: {
    args: 1,
    run: async ({ deps }, [name]) => {
      const { account, apiKey } = await createAccount(deps, name as string);
      console.error(`[kmem] created account '${account.name}' (${account.id}); the key below is shown once`);
      console.log(apiKey);
      return 0;
    },
  },
  'webhook-secret': {
    args: 1,
    run: async ({ deps }, [name]) => {
      const account = await deps.accounts.findByName(name as string);
      if (!account) {
        console.error(`[kmem] no account named '${name}'`);
        return 1;
      }
      console.log(account.webhookSecret);
      return 0;
    },
  },
  'import-sources': {
    args: 1,
    more: true,
    run: async ({ deps }, [name, ...pairs]) => {
      const account = await setImportSources(deps, name as string, pairs);
      const sources = account.importSources ?? [];
      console.error(
        sources.length
          ? `[kmem] '${account.name}' may import from ${sources.length} source(s), within the stage's import buckets (KMEM_IMPORT_BUCKETS / importBuckets):`
          : `[kmem] '${account.name}' may import from no bucket`,
      );
      for (const source of sources) console.log(source);
      return 0;
    },
  },
  delete: {
    args: 1,
    run: async ({ deps }, [name], options) => {
      if (!options.yes) {
        console.error(`[kmem] this erases account '${name}' and everything it owns, for good: add --yes to go ahead`);
        return 2;
      }
      if (options.aws && !options.bucket) {
        console.error("[kmem] a deployed stack's account is erased from its bucket too: add --bucket BUCKET (the stack's artefact bucket)");
        return 2;
      }
      const settleMs = options.settle === undefined ? deps.config.authCacheMs + 10_000 : seconds(options.settle) * 1000;
      console.error(`[kmem] erasing '${name}': keys revoked, both stores swept, then swept again after ${settleMs / 1000} s`);
      const erased = await eraseAccount(deps, name as string, {
        settleMs,
        wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      });
      console.error(`[kmem] erased account '${erased.account.name}' (${erased.account.id})`);
      console.log(`keys revoked ${erased.keysRevoked}, objects deleted ${erased.objectsDeleted}, items deleted ${erased.itemsDeleted}`);
      return 0;
    },
  },
  'keys list': {
    args: 1,
    run: async ({ deps }, [name]) => {
      for (const key of await listKeys(deps, name as string)) console.log(describeKey(key));
      return 0;
    },
  },
  'keys create': {
    args: 1,
    run: async ({ deps }, [name]) => {
      const { apiKey, key } = await createKey(deps, name as string);
      console.error(`[kmem] new key ${key.keyId} of '${name}'; the key below is shown once`);
      console.log(apiKey);
      return 0;
    },
  },
  'keys revoke': {
    args: 2,
    run: async ({ deps }, [name, keyId]) => {
      const key = await revokeKey(deps, name as string, keyId as string);
      console.error(`[kmem] revoked; running services stop accepting it within ${deps.config.authCacheMs / 1000} s`);
      console.log(describeKey(key));
      return 0;
    },
  },
  'keys rotate': {
    args: 2,
    run: async ({ deps }, [name, keyId]) => {
      const { apiKey, key, revoked } = await rotateKey(deps, name as string, keyId as string);
      console.error(
        `[kmem] new key ${key.keyId}; revoked ${revoked.keyId} (accepted for ${deps.config.authCacheMs / 1000} s more at most); the key below is shown once`,
      );
      console.log(apiKey);
      return 0;
    },
  },
};

/** A whole number of seconds from the command line, or a clear refusal. */
function seconds(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw BadRequestError.forField('--settle', 'must be a whole number of seconds (0 or more)');
  return parsed;
}

/** Main's answer while the MCP server runs: the process lives until stdin closes. */
const SERVING = 'serving';

async function main(): Promise<number | typeof SERVING> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      table: { type: 'string' },
      region: { type: 'string' },
      bucket: { type: 'string' },
      yes: { type: 'boolean', default: false },
      settle: { type: 'string' },
    },
  });
  if (positionals.length === 1 && positionals[0] === 'mcp') return serveMcp();
  const [group, first, ...rest] = positionals;
  const name = first === 'keys' ? `keys ${rest.shift() ?? ''}` : first;
  const command = name ? COMMANDS[name] : undefined;
  const arity = command && (command.more ? rest.length >= command.args : rest.length === command.args);
  if (group !== 'accounts' || !command || !arity) {
    console.error(USAGE);
    return 2;
  }
  const target: Target =
    values.table && values.region
      ? { kind: 'aws', tableName: values.table, region: values.region, ...(values.bucket ? { bucketName: values.bucket } : {}) }
      : { kind: 'local' };
  const session = await openStores(target);
  console.error(`[kmem] using ${session.where}`);
  try {
    const options = { yes: values.yes === true, settle: values.settle, bucket: values.bucket !== undefined, aws: target.kind === 'aws' };
    return await command.run(session, rest, options);
  } finally {
    await session.close();
  }
}

/** The MCP server is loaded only for `kmem mcp`: the account commands start quicker without its SDK. */
async function serveMcp(): Promise<number | typeof SERVING> {
  const url = process.env.KMEM_URL ?? 'http://127.0.0.1:8080';
  const apiKey = process.env.KMEM_API_KEY;
  if (!apiKey) {
    console.error('[kmem] mcp: set KMEM_API_KEY to the API key the tools use (and KMEM_URL to the API address)');
    return 2;
  }
  const { serveMcpOverStdio } = await import('../functions/mcp/stdio');
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
