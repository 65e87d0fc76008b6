/** Where the CDK app finds the function code: one handler entry per endpoint group, plus the worker. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Group } from '../functions/http/route-spec';

/** The repository root (holds package.json, package-lock.json and functions/). */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The lock file that pins what the bundles contain. */
export const LOCK_FILE = join(REPO_ROOT, 'package-lock.json');

/** Name of a deployed function: an endpoint group or the ingestion worker. */
export type FunctionName = Group | 'worker';

/** Absolute path of a function's handler module (`functions/<name>/handler.ts`, exporting `handler`). */
export const handlerEntry = (name: FunctionName): string => join(REPO_ROOT, 'functions', name, 'handler.ts');
