/** The reranker on AWS: off by default; a Bedrock model passed to the retrieval function alone and granted alone. */
import { describe, expect, it } from 'vitest';
import { stageConfig } from '../../lib/config';
import { logicalId, type Statement, statementsOfRole, type Synthesized, synthesize } from './support/synth';

function retrievalOf(synth: Synthesized) {
  const fn = synth.stack.api.functions.get('retrieval');
  if (!fn) throw new Error('no retrieval function');
  const resource = synth.template.findResources('AWS::Lambda::Function')[logicalId(synth.stack, fn.function)];
  const variables = (resource?.Properties.Environment.Variables ?? {}) as Record<string, unknown>;
  return { variables, statements: statementsOfRole(synth.template, logicalId(synth.stack, fn.role)) };
}

const withAction = (statements: Statement[], action: string): Statement[] =>
  statements.filter((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]).includes(action));

describe('reranker on AWS', () => {
  it('is off by default: no settings and no Bedrock grant', () => {
    const { variables, statements } = retrievalOf(synthesize());
    expect(Object.keys(variables).filter((name) => name.startsWith('KMEM_RERANKER'))).toEqual([]);
    expect(withAction(statements, 'bedrock:Rerank')).toEqual([]);
  });

  it('passes a Bedrock reranking model to the retrieval function alone and grants Rerank and that model only', () => {
    const reranker = { provider: 'bedrock', model: 'cohere.rerank-v3-5:0', candidates: 30, timeoutMs: 3000 };
    const synth = synthesize({ config: { reranker } });
    const { variables, statements } = retrievalOf(synth);
    expect(variables).toMatchObject({
      KMEM_RERANKER: 'bedrock',
      KMEM_RERANKER_MODEL: 'cohere.rerank-v3-5:0',
      KMEM_RERANKER_CANDIDATES: '30',
      KMEM_RERANKER_TIMEOUT_MS: '3000',
    });
    expect(withAction(statements, 'bedrock:Rerank')).toEqual([expect.objectContaining({ Resource: '*' })]);
    const invoke = withAction(statements, 'bedrock:InvokeModel');
    expect(invoke).toHaveLength(1);
    expect(JSON.stringify(invoke[0]?.Resource)).toContain('::foundation-model/cohere.rerank-v3-5:0');

    const functions = synth.template.findResources('AWS::Lambda::Function');
    const withReranker = Object.entries(functions).filter(([, fn]) =>
      JSON.stringify(fn.Properties.Environment ?? {}).includes('KMEM_RERANKER'),
    );
    expect(withReranker.map(([id]) => id)).toEqual([
      logicalId(synth.stack, synth.stack.api.functions.get('retrieval')?.function ?? synth.stack),
    ]);
  });

  it('refuses a Bedrock reranker without a model, or with candidates out of range', () => {
    expect(() => stageConfig('test', { reranker: { provider: 'bedrock' } })).toThrow(/reranker/);
    expect(() => stageConfig('test', { reranker: { provider: 'bedrock', model: 'amazon.rerank-v1:0', candidates: 5000 } })).toThrow(
      /candidates/,
    );
    expect(() => stageConfig('test', { reranker: { provider: 'openai', model: 'm' } })).toThrow(/reranker/);
  });
});
