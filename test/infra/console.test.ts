/** The console on AWS: a private bucket holding the build, CloudFront in front of it and of the API (one origin). */
import type { CfnResource } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesized, synthesize } from './support/synth';

let synth: Synthesized;

beforeAll(() => {
  synth = synthesize();
});

type Resource = { Properties: Record<string, any> };

const only = (type: string): Resource => {
  const found = Object.values(synth.template.findResources(type)) as Resource[];
  expect(found).toHaveLength(1);
  return found[0] as Resource;
};

describe('console site', () => {
  it('keeps the build in a private, TLS-only, logged bucket under console/', () => {
    const bucketId = synth.stack.resolve((synth.stack.console.bucket.node.defaultChild as CfnResource).logicalId);
    const bucket = synth.template.toJSON().Resources[bucketId] as Resource;
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: { LogFilePrefix: 'console-bucket/' },
    });
    const deployment = only('Custom::CDKBucketDeployment');
    expect(deployment.Properties).toMatchObject({
      DestinationBucketKeyPrefix: 'console/',
      DestinationBucketName: { Ref: bucketId },
      DistributionPaths: ['/console/*'],
    });
  });

  it('routes /console* to the bucket through origin access control and everything else to API Gateway', () => {
    const config = only('AWS::CloudFront::Distribution').Properties.DistributionConfig;
    const [apiOrigin, bucketOrigin] = [config.DefaultCacheBehavior.TargetOriginId, config.CacheBehaviors[0].TargetOriginId].map(
      (id: string) => config.Origins.find((o: { Id: string }) => o.Id === id),
    );
    expect(JSON.stringify(apiOrigin.DomainName)).toContain('execute-api');
    expect(JSON.stringify(apiOrigin.OriginPath)).toContain(synth.stack.config.api.stageName);
    expect(config.DefaultCacheBehavior).toMatchObject({
      AllowedMethods: expect.arrayContaining(['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD']),
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // AllViewerExceptHostHeader: X-API-Key reaches the API
    });
    expect(config.CacheBehaviors).toHaveLength(1);
    expect(config.CacheBehaviors[0]).toMatchObject({ PathPattern: '/console*', FunctionAssociations: [{ EventType: 'viewer-request' }] });
    expect(bucketOrigin.OriginAccessControlId).toBeDefined();
    expect(bucketOrigin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(config.Logging).toMatchObject({ Prefix: 'cloudfront/' });
    synth.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' })]),
      },
    });
  });

  it('answers /console* with a strict Content-Security-Policy and frame protection, keeping HSTS, nosniff and the referrer policy', () => {
    const config = only('AWS::CloudFront::Distribution').Properties.DistributionConfig;
    const policy = only('AWS::CloudFront::ResponseHeadersPolicy').Properties.ResponseHeadersPolicyConfig;
    expect(JSON.stringify(config.CacheBehaviors[0].ResponseHeadersPolicyId)).toContain(
      Object.keys(synth.template.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0],
    );
    const headers = policy.SecurityHeadersConfig;
    expect(headers.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy:
        "default-src 'self'; script-src 'self'; connect-src 'self' https://*.amazonaws.com; img-src 'self' data:; " +
        "style-src 'self' 'unsafe-inline'; worker-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
      Override: true,
    });
    expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31_536_000, Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true });
  });

  it('serves index.html for /console/ and redirects /console', () => {
    const code = only('AWS::CloudFront::Function').Properties.FunctionCode as string;
    expect(code).toContain("request.uri === '/console/') request.uri = '/console/index.html'");
    expect(code).toContain("location: { value: '/console/' }");
  });

  it('lets the console PUT large files to presigned addresses of the artefact bucket', () => {
    synth.template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedMethods: ['PUT'] })] },
    });
  });

  it('outputs the console URL on the distribution', () => {
    const outputs = synth.template.toJSON().Outputs;
    expect(JSON.stringify(outputs.ConsoleUrl.Value)).toMatch(/DomainName.*\/console\//);
  });
});
