import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { actionsOfRole, logicalId, synthesize } from './support/synth';

describe('embeddings on AWS', () => {
  it('leaves Bedrock out by default and grants Titan embeddings to the retrieval function and worker when configured', () => {
    const plain = synthesize();
    const retrieval = plain.stack.api.functions.get('retrieval');
    if (!retrieval) throw new Error('no retrieval function');
    expect(actionsOfRole(plain.template, logicalId(plain.stack, retrieval.role))).not.toContain('bedrock:InvokeModel');

    const bedrock = synthesize({ config: { embedder: 'bedrock' } });
    const fn = bedrock.stack.api.functions.get('retrieval');
    const worker = bedrock.stack.ingest.queueWorker.worker;
    if (!fn || !worker) throw new Error('missing functions');
    expect(actionsOfRole(bedrock.template, logicalId(bedrock.stack, fn.role))).toContain('bedrock:InvokeModel');
    expect(actionsOfRole(bedrock.template, logicalId(bedrock.stack, worker.role))).toContain('bedrock:InvokeModel');
    bedrock.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ KMEM_EMBEDDER: 'bedrock', KMEM_GRAPH_WORD_VECTORS: 'false' }) },
    });
  });
});
