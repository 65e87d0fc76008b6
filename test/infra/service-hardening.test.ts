/** Service-side hardening in the stack: traces without response bodies. */
import { describe, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { synthesize } from './support/synth';

describe('service hardening in the stack', () => {
  it('turns X-Ray response capture off on every function', () => {
    synthesize().template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false' }) },
    });
  });
});
