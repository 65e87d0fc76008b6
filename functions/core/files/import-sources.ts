/**
 * Where an `{s3}` import may read. The service's own artefact bucket, which holds every account's files,
 * is never a source. The stage's buckets (KMEM_IMPORT_BUCKETS; on AWS the stack's `importBuckets`, which
 * the worker's role may read) are the ceiling; within them an account reads only the `bucket/prefix`
 * pairs an operator gave it (`kmem accounts import-sources NAME BUCKET/PREFIX ...`, use-cases/import-sources.ts),
 * a prefix and what lies under it. The API checks a request, and the worker checks again before it lists anything.
 */
import { BadRequestError } from '../errors';
import type { Account } from '../model';

/** The stage's side of the rule (the config's import settings hold it). */
export interface ImportSourceRules {
  /** Buckets the stage may read; `*` for any (but the artefact bucket). */
  buckets: readonly string[];
  /** The service's own bucket: never an import source. */
  artefactBucket: string;
}

export interface S3Location {
  bucket: string;
  prefix: string;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Why the stage may not read `bucket` at all, or undefined when it may. */
export function bucketRefusal(rules: ImportSourceRules, bucket: string): string | undefined {
  const artefacts = artefactBucketRefusal(rules, bucket);
  if (artefacts) return artefacts;
  if (!rules.buckets.includes('*') && !rules.buckets.includes(bucket)) {
    return `'${bucket}' is not a bucket this service may read (the stage's importBuckets)`;
  }
  return undefined;
}

/** Why the account may not import `source`, naming the field at fault, or undefined when it may. */
export function importSourceRefusal(
  rules: ImportSourceRules,
  account: Pick<Account, 'importSources'> | undefined,
  source: S3Location,
): { field: 's3.bucket' | 's3.prefix'; problem: string } | undefined {
  const bucketProblem = bucketRefusal(rules, source.bucket);
  if (bucketProblem) return { field: 's3.bucket', problem: bucketProblem };
  const pairs = (account?.importSources ?? []).map(parseImportSource);
  if (pairs.some((pair) => pair.bucket === source.bucket && source.prefix.startsWith(pair.prefix))) return undefined;
  return {
    field: 's3.prefix',
    problem: `'${source.bucket}/${source.prefix}' is not under one of the account's import sources (an operator gives them: kmem accounts import-sources NAME BUCKET/PREFIX ...)`,
  };
}

/** Why `bucket` can never be a source (it is the artefact bucket), or undefined. */
export function artefactBucketRefusal(rules: Pick<ImportSourceRules, 'artefactBucket'>, bucket: string): string | undefined {
  return bucket === rules.artefactBucket ? `'${bucket}' is the service's own artefact bucket, which is never an import source` : undefined;
}

/** `bucket/prefix` (or a bare `bucket`: all of it) as a location; throws naming the pair when it is none. */
export function parseImportSource(pair: string): S3Location {
  const slash = pair.indexOf('/');
  const bucket = slash < 0 ? pair : pair.slice(0, slash);
  const prefix = slash < 0 ? '' : pair.slice(slash + 1);
  if (!BUCKET_NAME.test(bucket)) throw BadRequestError.forField('importSources', `'${pair}' does not start with an S3 bucket name`);
  if (prefix.length > 1024) throw BadRequestError.forField('importSources', `'${pair.slice(0, 80)}...' has a prefix over 1024 characters`);
  return { bucket, prefix };
}
