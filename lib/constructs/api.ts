/**
 * The HTTP API: a REST API whose routes come from the route catalog, one function per endpoint group
 * with only the grants its group needs (group-access.ts), stage throttling, JSON access logs, X-Ray, and
 * gateway responses in the interface's error shape. Bodies reach the functions base64-encoded
 * (`binaryMediaTypes: ['*\/*']`), so uploads arrive byte for byte.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Group, RouteSpec } from '../../functions/http/route-spec';
import type { StageConfig } from '../config';
import { addCatalogRoutes } from './catalog-routes';
import { addGatewayResponses } from './gateway-responses';
import {
  grantAnswerModel,
  grantEmbeddings,
  grantObjects,
  grantRequestCounting,
  grantRerankModel,
  grantTable,
  grantTokenBudget,
} from './grants';
import { ServiceFunction } from './service-function';
import type { FunctionName } from '../paths';
import type { Data } from './data';
import { answerEnvironment, embeddingEnvironment, importEnvironment, rerankerEnvironment, sharedEnvironment } from './environment';
import { GROUP_ACCESS } from './group-access';
import type { VectorStore } from './vector-store';

/** Properties of `Api`. */
export interface ApiProps {
  readonly config: StageConfig;
  readonly data: Data;
  /** The S3 Vectors bucket of large memories, when the stage has one. */
  readonly vectors?: VectorStore;
  readonly queue: IQueue;
  /** The route catalog (functions/catalog.ts). */
  readonly routes: readonly RouteSpec[];
  readonly entryOf: (name: FunctionName) => string;
}

/** The REST API, its functions by group, and the deployed routes. */
export class Api extends Construct {
  readonly restApi: RestApi;
  readonly functions: ReadonlyMap<Group, ServiceFunction>;
  readonly methods: readonly Method[];

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.restApi = createRestApi(this, props.config);
    const groups = [...new Set(props.routes.map((route) => route.group))];
    const functions = new Map(groups.map((group) => [group, this.createFunction(group, props)] as const));
    const integrations = new Map(
      [...functions].map(([group, fn]) => [group, new LambdaIntegration(fn.function, { allowTestInvoke: false })]),
    );
    this.functions = functions;
    this.methods = addCatalogRoutes(this.restApi, props.routes, (group) => {
      const integration = integrations.get(group);
      if (!integration) throw new Error(`no function for group ${group}`);
      return integration;
    });
    addGatewayResponses(this.restApi);
    acknowledgeFindings(this.restApi);
  }

  private createFunction(group: Group, props: ApiProps): ServiceFunction {
    const { api } = props.config;
    const fn = new ServiceFunction(this, `${group[0]?.toUpperCase()}${group.slice(1)}`, {
      name: group,
      entry: props.entryOf(group),
      description: `kmem ${group} endpoints`,
      memoryMb: api.memoryMb,
      timeout: Duration.seconds(api.timeoutSeconds),
      reservedConcurrency: api.reservedConcurrency[group],
      environment: {
        ...sharedEnvironment(props.config, props.data),
        KMEM_QUEUE_URL: props.queue.queueUrl,
        ...groupEnvironment(group, props),
      },
      config: props.config,
    });
    const access = GROUP_ACCESS[group];
    grantTable(props.data.table, fn, access.table);
    grantObjects(props.data.bucket, fn, access.bucket);
    // every authenticated request counts against its account's rate limit (functions/core/use-cases/rate-limit.ts)
    if (access.table === 'read' || access.table === 'keyLookup') grantRequestCounting(props.data.table, fn);
    if (access.enqueue) props.queue.grantSendMessages(fn.role);
    grantQueryModels(group, fn, props);
    return fn;
  }
}

/** The settings only some groups read: embeddings and the vector tier for queries, models for retrieval, imports for files. */
function groupEnvironment(group: Group, props: ApiProps): Record<string, string> {
  const querying = VECTOR_QUERY_GROUPS.has(group);
  return {
    ...(querying ? embeddingEnvironment(props.config) : {}),
    ...(querying || group === 'memories' ? props.vectors?.environment() : {}),
    ...(group === 'retrieval' ? { ...answerEnvironment(props.config), ...rerankerEnvironment(props.config) } : {}),
    ...(group === 'files' ? importEnvironment(props.config) : {}),
  };
}

/** What the querying groups may call: the embedding model, the vector tier, and for retrieval the answer and rerank models. */
function grantQueryModels(group: Group, fn: ServiceFunction, props: ApiProps): void {
  if (group === 'memories') props.vectors?.grant(fn, 'drop'); // a deleted memory's vector index goes with it
  if (!VECTOR_QUERY_GROUPS.has(group)) return;
  if (props.config.embedder === 'bedrock') grantEmbeddings(fn);
  props.vectors?.grant(fn, 'query');
  if (group !== 'retrieval') return;
  grantAnswers(fn, props);
  if (props.config.reranker.provider === 'bedrock') grantRerankModel(fn, props.config.reranker.model);
}

/** The groups that query memory indexes (memory retrieval, message search), hence the vector tier. */
const VECTOR_QUERY_GROUPS: ReadonlySet<Group> = new Set<Group>(['retrieval', 'messages']);

/** With an answer model: its tokens are charged to the account, and a Bedrock model may be invoked. */
function grantAnswers(fn: ServiceFunction, props: ApiProps): void {
  const answer = props.config.answerModel;
  if (answer.provider === 'none') return;
  grantTokenBudget(props.data.table, fn);
  if (answer.provider === 'bedrock') grantAnswerModel(fn, answer.model);
  if (answer.provider === 'openai' && answer.apiKeySecret) {
    Secret.fromSecretNameV2(fn, 'AnswerModelKey', answer.apiKeySecret).grantRead(fn.role);
  }
}

/** One JSON line per request: who, what, the answer, where the time went, and the gateway's error. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    requestTime: AccessLogField.contextRequestTime(),
    ip: AccessLogField.contextIdentitySourceIp(),
    httpMethod: AccessLogField.contextHttpMethod(),
    resourcePath: AccessLogField.contextResourcePath(),
    protocol: AccessLogField.contextProtocol(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    responseLatency: AccessLogField.contextResponseLatency(),
    integrationLatency: AccessLogField.contextIntegrationLatency(),
    integrationStatus: AccessLogField.contextIntegrationStatus(),
    errorType: AccessLogField.contextErrorResponseType(),
    errorMessage: AccessLogField.contextErrorMessage(),
    xrayTraceId: AccessLogField.contextXrayTraceId(),
  }),
);

function createRestApi(scope: Construct, config: StageConfig): RestApi {
  const accessLogs = new LogGroup(scope, 'AccessLogs', { retention: config.logRetentionDays });
  return new RestApi(scope, 'RestApi', {
    restApiName: `kmem-${config.stage}`,
    description: `kmem knowledge memory API (${config.stage})`,
    endpointTypes: [EndpointType.REGIONAL],
    binaryMediaTypes: ['*/*'],
    // Access and execution logs need API Gateway's account-level CloudWatch role.
    cloudWatchRole: true,
    deployOptions: {
      stageName: config.api.stageName,
      throttlingRateLimit: config.api.throttleRateLimit,
      throttlingBurstLimit: config.api.throttleBurstLimit,
      tracingEnabled: true,
      metricsEnabled: true,
      loggingLevel: MethodLoggingLevel.ERROR,
      dataTraceEnabled: false,
      accessLogDestination: new LogGroupLogDestination(accessLogs),
      accessLogFormat: ACCESS_LOG_FORMAT,
    },
  });
}

function acknowledgeFindings(api: RestApi): void {
  const keyAuth =
    'Every route but /healthz and /openapi.json requires an X-API-Key that the group function verifies against salted hashes in the table (functions/http/handler.ts); callers are services holding kmem keys, not IAM or Cognito identities.';
  Validations.of(api).acknowledge(
    { id: 'AwsSolutions-APIG4', reason: keyAuth },
    { id: 'AwsSolutions-COG4', reason: keyAuth },
    {
      id: 'AwsSolutions-APIG2',
      reason:
        "Requests are validated in the function by the route catalog's zod schemas, which answer in the interface's {error, status} shape; a gateway validator would answer in another shape.",
    },
    {
      id: 'AwsSolutions-APIG3',
      reason:
        "No WAF by default: a web ACL bills monthly even when idle and its rules are the operator's choice; stage throttling limits abuse, and a web ACL can be associated with the stage after deploying.",
    },
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: "API Gateway's account-level logging role uses the AWS-managed policy made for it, which only writes CloudWatch logs.",
    },
  );
}
