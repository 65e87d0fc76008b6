/** Service-side hardening in the stack: traces without response bodies, unclaimed uploads expire. */
import { describe, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { synthesize } from './support/synth';

describe('service hardening in the stack', () => {
  it('turns X-Ray response capture off on every function', () => {
    synthesize().template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false' }) },
    });
  });

  it('expires presigned uploads that no files/create took', () => {
    synthesize().template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Prefix: 'incoming/', ExpirationInDays: 1, Status: 'Enabled' })]) },
    });
  });
});
