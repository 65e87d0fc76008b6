/**
 * A secret's value from AWS Secrets Manager, read once per container (the first call reads; a failed read
 * is tried again by the next call). The endpoint is the SDK's own setting, so
 * AWS_ENDPOINT_URL_SECRETS_MANAGER points it elsewhere (tests use a double on 127.0.0.1). The SDK client's
 * module loads at the first read, not at import (a worker that never reads a secret never loads it).
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export function secretReader(secretId: string, region: string): () => Promise<string> {
  let client: SecretsManagerClient | undefined;
  let value: Promise<string> | undefined;
  const read = async (): Promise<string> => {
    const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    client ??= new SecretsManagerClient({ region });
    const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!out.SecretString) throw new Error(`secret ${secretId} holds no text`);
    return out.SecretString.trim();
  };
  return () => {
    value ??= read().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}
