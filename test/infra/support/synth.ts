/**
 * Synthesizes the kmem app in the test's process, with the context of cdk.json, so tests assert on what
 * `npx cdk synth` produces. Bundling is skipped: the bundles themselves are checked on the one bundling synth
 * of the suite, real-synth.test.ts (`npx cdk synth` in a clean copy), and by bench/bundles.ts. The app with
 * no option is synthesized once per process (each test file runs in its own) and shared by the tests that
 * ask for it: a synth takes seconds, and nothing a test reads from it changes it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { createKmemApp, type KmemApp } from '../../../lib/app';
import { SKIP_RUNTIME_MODULES_CONTEXT } from '../../../lib/constructs/bundling';
import { type FunctionName, REPO_ROOT } from '../../../lib/paths';

/** A small worker handler for tests of the QueueWorker construct on its own. */
export const FIXTURE_WORKER = fileURLToPath(new URL('../fixtures/worker-handler.ts', import.meta.url));

/** The synthesized app, its stack and template. */
export interface Synthesized extends KmemApp {
  readonly template: Template;
  readonly assembly: CloudAssembly;
}

/** Options of `synthesize`. */
export interface SynthOptions {
  readonly stage?: string;
  readonly config?: Record<string, unknown>;
  readonly entryOf?: (name: FunctionName) => string;
  /** CDK's CloudFormation schema validation: seconds per synth, so only nag.test.ts turns it on. */
  readonly cloudFormationValidation?: boolean;
}

/** The context `npx cdk synth` gets from cdk.json. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return cdkJson.context;
}

let plainApp: Synthesized | undefined;

/**
 * The synth directories this process made, removed when it exits: one exit listener for them all (one per
 * synth passed Node's limit of ten in a thread that runs the stack's files one after another, and printed
 * its MaxListenersExceededWarning).
 */
const outdirs: string[] = [];
function removeAtExit(outdir: string): void {
  if (outdirs.push(outdir) > 1) return;
  process.once('exit', () => {
    for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
  });
}

/**
 * Builds and synthesizes the app (throws when the nag packs find an unacknowledged error); with no option,
 * the one synth of the plain app this process shares.
 */
export function synthesize(options: SynthOptions = {}): Synthesized {
  if (Object.keys(options).length > 0) return synthesizeWith(options);
  plainApp ??= synthesizeWith({});
  return plainApp;
}

function synthesizeWith(options: SynthOptions): Synthesized {
  const context: Record<string, unknown> = { ...cdkJsonContext(), stage: options.stage ?? 'test' };
  if (options.config) context.config = options.config;
  context['aws:cdk:bundling-stacks'] = [];
  context[SKIP_RUNTIME_MODULES_CONTEXT] = true; // no npm install of the worker's runtime modules in tests
  const outdir = mkdtempSync(join(tmpdir(), 'kmem-cdk-'));
  removeAtExit(outdir);
  const kmem = createKmemApp({
    context,
    outdir,
    entryOf: options.entryOf,
    cloudFormationValidation: options.cloudFormationValidation ?? false,
  });
  const assembly = kmem.app.synth();
  return { ...kmem, assembly, template: Template.fromStack(kmem.stack) };
}

/** The logical id of the CloudFormation resource behind `construct`. */
export function logicalId(stack: Stack, construct: IConstruct): string {
  return stack.getLogicalId(construct.node.defaultChild as CfnElement);
}

/** An IAM policy statement as it appears in the template. */
export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** Every statement of the policies attached to the role `roleLogicalId`. */
export function statementsOfRole(template: Template, roleLogicalId: string): Statement[] {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.values(policies)
    .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${roleLogicalId}"`))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** The actions a role may perform, flattened. */
export function actionsOfRole(template: Template, roleLogicalId: string): string[] {
  return statementsOfRole(template, roleLogicalId).flatMap((statement) =>
    Array.isArray(statement.Action) ? statement.Action : [statement.Action],
  );
}
