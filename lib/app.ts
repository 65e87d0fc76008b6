/**
 * Builds the CDK app of one stage: the stage name from the `stage` context value (default `dev`), its
 * validated configuration, the stack, and the cdk-nag AwsSolutions and Serverless packs as validation
 * plugins (unacknowledged errors fail the synth; see the acknowledgements beside each construct).
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, type NagPack, ServerlessChecks } from 'cdk-nag';
import { catalog } from '../functions/catalog';
import { stageConfig } from './config';
import { KmemStack, type KmemStackProps } from './constructs/kmem-stack';

/** Options of `createKmemApp`; the CLI passes none (context arrives through the environment). */
export interface KmemAppOptions {
  readonly context?: Record<string, unknown>;
  readonly outdir?: string;
  readonly entryOf?: KmemStackProps['entryOf'];
  /** CDK's built-in CloudFormation schema validation at synth (default true; seconds per synth). */
  readonly cloudFormationValidation?: boolean;
}

/** The app, its stack and the nag packs it runs. */
export interface KmemApp {
  readonly app: App;
  readonly stack: KmemStack;
  readonly packs: readonly NagPack[];
}

/** Composes the app of the stage named by the `stage` context value. */
export function createKmemApp(options: KmemAppOptions = {}): KmemApp {
  const app = new App({
    context: options.context,
    outdir: options.outdir,
    builtinCloudFormationValidation: options.cloudFormationValidation ?? true,
  });
  const stage = String(app.node.tryGetContext('stage') ?? 'dev');
  const config = stageConfig(stage, parseContextObject(app.node.tryGetContext('config')));
  const stack = new KmemStack(app, `kmem-${stage}`, {
    config,
    routes: catalog,
    entryOf: options.entryOf,
    description: `kmem knowledge memory service (${stage})`,
  });
  Tags.of(stack).add('kmem:stage', stage);
  const packs = [new AwsSolutionsChecks(app), new ServerlessChecks(app)];
  Validations.of(app).addPlugins(...packs);
  return { app, stack, packs };
}

/** `-c config='{...}'` arrives as a string, cdk.json context as an object. */
function parseContextObject(value: unknown): unknown {
  if (value === undefined) return {};
  return typeof value === 'string' ? JSON.parse(value) : value;
}
