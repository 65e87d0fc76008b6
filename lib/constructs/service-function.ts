/**
 * A Lambda function with kmem's defaults: Node.js 22 on ARM64, its code from the stack's one esbuild
 * build (lib/bundling/function-code.ts), X-Ray tracing, its own log group with a retention, a role of
 * its own that may write only to that log group (grants add the rest), Powertools settings, and a
 * `KMEM_*` environment typed by the functions' own environment schema (functions/config/) and checked
 * against it at synth time.
 */
import { type Duration, Size, Token, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { z } from 'zod';
import { type EnvironmentVariable, FUNCTION_SETTINGS, requiredOnLambda, settingsSchema } from '../../functions/config';
import type { StageConfig } from '../config';
import { functionBundle, functionCode } from '../bundling/function-code';
import type { FunctionName } from '../paths';
import { SKIP_RUNTIME_MODULES_CONTEXT, SOURCE_MAP_NODE_OPTIONS, WORKER_ARCHITECTURE } from './bundling';

/**
 * The `KMEM_*` settings a function reads, keyed by the schema that validates them at cold start;
 * `AWS_REGION` is left out because Lambda sets it (a reserved variable).
 */
export type FunctionEnvironment = Partial<Record<Exclude<EnvironmentVariable, 'AWS_REGION'>, string>>;

/** The runtime of every function (see the `LambdaLatestVersion` acknowledgement below). */
const FUNCTION_RUNTIME = Runtime.NODEJS_22_X;

/** Properties of a `ServiceFunction`. */
export interface ServiceFunctionProps {
  /** The endpoint group or `worker`; the Powertools service is `kmem-<name>`. */
  readonly name: FunctionName;
  /** Absolute path of the handler module exporting `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly memoryMb: number;
  readonly timeout: Duration;
  readonly ephemeralStorageMb?: number;
  readonly reservedConcurrency?: number;
  readonly environment: FunctionEnvironment;
  readonly config: StageConfig;
}

/** One deployed function, its role and its log group. */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    checkEnvironment(props.name, props.environment);
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.config.logRetentionDays });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `kmem ${props.config.stage} ${props.name} function`,
    });
    this.logGroup.grantWrite(this.role);
    const bundle = functionBundle(props.name, props.entry);
    this.function = new NodejsFunction(this, 'Function', {
      code: functionCode(this, bundle, !this.node.tryGetContext(SKIP_RUNTIME_MODULES_CONTEXT)),
      handler: 'index.handler',
      runtime: FUNCTION_RUNTIME,
      // the API functions on ARM64; the worker on the architecture its runtime modules are installed for
      architecture: bundle.runtimeModules.length && WORKER_ARCHITECTURE === 'x64' ? Architecture.X86_64 : Architecture.ARM_64,
      description: props.description,
      memorySize: props.memoryMb,
      timeout: props.timeout,
      ephemeralStorageSize: props.ephemeralStorageMb ? Size.mebibytes(props.ephemeralStorageMb) : undefined,
      reservedConcurrentExecutions: props.reservedConcurrency,
      tracing: Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...runtimeEnvironment(props), ...definedOnly(props.environment) },
    });
    acknowledgeFindings(this);
  }
}

function runtimeEnvironment(props: ServiceFunctionProps): Record<string, string> {
  return {
    POWERTOOLS_SERVICE_NAME: `kmem-${props.name}`,
    POWERTOOLS_METRICS_NAMESPACE: 'kmem',
    POWERTOOLS_LOG_LEVEL: props.config.logLevel,
    // traces keep timings and errors, never the answers (they hold tenants' text)
    POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
    ...(props.config.sourceMapStackTraces ? { NODE_OPTIONS: SOURCE_MAP_NODE_OPTIONS } : {}),
  };
}

function definedOnly(environment: FunctionEnvironment): Record<string, string> {
  const entries = Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return Object.fromEntries(entries);
}

/**
 * Fails the synth on an environment the function would refuse at cold start (by its own settings schema,
 * functions/config/): a variable it requires on Lambda left out, a value it would reject (tokens resolve
 * at deploy), or a variable it does not read.
 */
function checkEnvironment(name: FunctionName, environment: FunctionEnvironment): void {
  const sections = FUNCTION_SETTINGS[name];
  const shape = settingsSchema(sections).shape;
  const missing = requiredOnLambda(sections).filter((key) => key !== 'AWS_REGION' && environment[key] === undefined);
  if (missing.length) throw new Error(`function environment of ${name} lacks ${missing.join(', ')}`);
  for (const [key, value] of Object.entries(environment)) {
    const schema = shape[key];
    if (!schema) throw new Error(`function environment of ${name}: ${key} is not one of its settings`);
    if (value === undefined || Token.isUnresolved(value)) continue;
    const result = z.safeParse(schema, value);
    if (!result.success) {
      throw new Error(`invalid function environment ${key}=${value}: ${result.error.issues[0]?.message}`);
    }
  }
}

function acknowledgeFindings(construct: ServiceFunction): void {
  Validations.of(construct.role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
  });
  Validations.of(construct.function).acknowledge(...RUNTIME_ACKNOWLEDGEMENTS);
}

const RUNTIME_PINNED =
  'Pinned to nodejs22.x, an LTS runtime that runs the node20-targeted bundles; moving to nodejs24.x (FUNCTION_RUNTIME) waits until the test suite runs on Node 24.';

const RUNTIME_ACKNOWLEDGEMENTS = [
  { id: 'AwsSolutions-L1', reason: RUNTIME_PINNED },
  { id: 'Serverless-LambdaLatestVersion', reason: RUNTIME_PINNED },
  {
    id: 'Serverless-LambdaDLQ',
    reason:
      "Never invoked asynchronously: API Gateway and the SQS event source invoke synchronously, and failed ingestion messages go to the queue's own dead-letter queue.",
  },
];
