/**
 * The web console on AWS: its static build in a private S3 bucket (read by CloudFront through origin
 * access control) behind a CloudFront distribution that also routes every other path to the REST API,
 * so the console and the API share one origin (no CORS). `/console/` serves index.html; assets are cached.
 */
import { type CfnResource, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { RestApiOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { CONSOLE_DIST, ensureConsoleBuilt } from '../console-build';
import { AWS_UPLOAD_ORIGIN, consoleContentSecurityPolicy } from '../console-headers';

/** Properties of `ConsoleSite`. */
export interface ConsoleSiteProps {
  readonly api: RestApi;
  /** Days CloudFront's and the console bucket's access logs are kept. */
  readonly accessLogDays: number;
  /** Retention of the deployment provider's log group, as for every function of the stack. */
  readonly logRetention: RetentionDays;
}

/** Where the console lives on the distribution (and under which prefix in its bucket). */
const CONSOLE_PREFIX = 'console';

/** `/console` redirects to `/console/`, which serves `/console/index.html` (CloudFront Functions JS 2.0). */
const INDEX_REWRITE = `function handler(event) {
  var request = event.request;
  if (request.uri === '/${CONSOLE_PREFIX}') {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: '/${CONSOLE_PREFIX}/' } } };
  }
  if (request.uri === '/${CONSOLE_PREFIX}/') request.uri = '/${CONSOLE_PREFIX}/index.html';
  return request;
}`;

/** The console bucket, the distribution in front of it and the API, and the deployment of the build. */
export class ConsoleSite extends Construct {
  readonly bucket: Bucket;
  readonly logs: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>/console/`. */
  readonly url: string;
  /** `https://<distribution domain>`: the API's paths on the console's origin. */
  readonly apiUrl: string;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    ensureConsoleBuilt();
    this.logs = createLogBucket(this, props.accessLogDays);
    this.bucket = new Bucket(this, 'Assets', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: 'console-bucket/',
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.distribution = createDistribution(this, props.api, this.bucket, this.logs);
    new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(CONSOLE_DIST)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: `${CONSOLE_PREFIX}/`,
      distribution: this.distribution,
      distributionPaths: [`/${CONSOLE_PREFIX}/*`],
      memoryLimit: 256,
      logGroup: new LogGroup(this, 'DeployLogs', { retention: props.logRetention }),
    });
    this.apiUrl = `https://${this.distribution.distributionDomainName}`;
    this.url = `${this.apiUrl}/${CONSOLE_PREFIX}/`;
    acknowledgeFindings(this);
  }
}

function createDistribution(scope: Construct, api: RestApi, bucket: Bucket, logs: Bucket): Distribution {
  const indexRewrite = new CloudFrontFunction(scope, 'IndexRewrite', {
    code: FunctionCode.fromInline(INDEX_REWRITE),
    runtime: FunctionRuntime.JS_2_0,
    comment: 'kmem console: /console/ serves index.html',
  });
  return new Distribution(scope, 'Distribution', {
    comment: 'kmem: the console (S3) and the API (API Gateway) on one origin',
    httpVersion: HttpVersion.HTTP2_AND_3,
    enableLogging: true,
    logBucket: logs,
    logFilePrefix: 'cloudfront/',
    defaultBehavior: {
      // every API path: nothing cached, every header but Host (X-API-Key included) and the query passed on
      origin: new RestApiOrigin(api),
      allowedMethods: AllowedMethods.ALLOW_ALL,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    },
    additionalBehaviors: {
      [`/${CONSOLE_PREFIX}*`]: {
        origin: S3BucketOrigin.withOriginAccessControl(bucket),
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: consoleHeaders(scope),
        compress: true,
        functionAssociations: [{ function: indexRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
    },
  });
}

/**
 * The managed SecurityHeadersPolicy's headers (HSTS, nosniff, referrer policy) plus the console's
 * Content-Security-Policy, and no framing at all (DENY rather than SAMEORIGIN: the console frames nothing).
 */
function consoleHeaders(scope: Construct): ResponseHeadersPolicy {
  return new ResponseHeadersPolicy(scope, 'ConsoleHeaders', {
    comment: 'kmem console: strict CSP, no framing, HSTS, nosniff, referrer policy',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: consoleContentSecurityPolicy(AWS_UPLOAD_ORIGIN), override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      contentTypeOptions: { override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      xssProtection: { protection: true, modeBlock: true, override: true },
    },
  });
}

/** CloudFront's standard logs need a bucket with ACLs (the log delivery writes objects it owns). */
function createLogBucket(scope: Construct, days: number): Bucket {
  const bucket = new Bucket(scope, 'AccessLogs', {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.OBJECT_WRITER,
    enforceSSL: true,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(days) }],
  });
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'This bucket holds the access logs of the console distribution and bucket; logging it would log its own log deliveries.',
  });
  return bucket;
}

function acknowledgeFindings(site: ConsoleSite): void {
  Validations.of(site.distribution).acknowledge(
    {
      id: 'AwsSolutions-CFR1',
      reason:
        "kmem serves its own account holders wherever they are; a geographic restriction is the operator's choice and can be added to the distribution.",
    },
    {
      id: 'AwsSolutions-CFR2',
      reason:
        "No WAF by default, as for the REST API: a web ACL bills monthly even when idle and its rules are the operator's choice; API Gateway throttles the API behind this distribution.",
    },
    {
      id: 'AwsSolutions-CFR4',
      reason:
        'The distribution uses its default *.cloudfront.net certificate, for which CloudFront fixes the TLS policy; a custom domain with its own certificate sets TLSv1.2_2021.',
    },
  );
  // The bucket deployment's provider (one function per stack, at the stack's root) copies the build into the bucket.
  const stack = Stack.of(site);
  const bucketArn = `<${stack.resolve((site.bucket.node.defaultChild as CfnResource).logicalId)}.Arn>`;
  for (const child of stack.node.children) {
    if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
    Validations.of(child).acknowledge(...bucketDeploymentFindings(bucketArn));
  }
}

const deploymentReason = (what: string): string =>
  `CDK's BucketDeployment provider (runs only while the stack deploys, copying the console build to its bucket): ${what}`;

const bucketDeploymentFindings = (bucketArn: string) => [
  {
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason: deploymentReason('its role uses the AWS-managed basic execution policy that CDK gives it (logs only).'),
  },
  ...[
    'Action::s3:GetBucket*',
    'Action::s3:GetObject*',
    'Action::s3:List*',
    'Action::s3:Abort*',
    'Action::s3:DeleteObject*',
    'Resource::*',
    `Resource::${bucketArn}/*`,
    'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
  ].map((finding) => ({
    id: `AwsSolutions-IAM5[${finding}]`,
    reason: deploymentReason(
      "CDK's grants to read the build from the CDK asset bucket and replace the console bucket's objects (keys unknown before deployment), and to invalidate the distribution's console paths.",
    ),
  })),
  { id: 'AwsSolutions-L1', reason: deploymentReason('CDK pins its runtime to the AWS CLI layer it bundles.') },
  {
    id: 'Serverless-LambdaDLQ',
    reason: deploymentReason('CloudFormation invokes it synchronously and reports its failure on the stack; there is nothing to redrive.'),
  },
  {
    id: 'Serverless-LambdaAsyncFailureDestination',
    reason: deploymentReason('invoked synchronously by CloudFormation, which reports failures.'),
  },
  { id: 'Serverless-LambdaDefaultTimeout', reason: deploymentReason('CDK sets its timeout (15 minutes) for copying the build.') },
  { id: 'Serverless-LambdaTracing', reason: deploymentReason('a deploy-time copy with no request to trace.') },
  { id: 'Serverless-LambdaLatestVersion', reason: deploymentReason('CDK chooses its runtime.') },
  { id: 'Serverless-LambdaDefaultMemorySize', reason: deploymentReason('its memory is set by the memoryLimit given to it.') },
];
