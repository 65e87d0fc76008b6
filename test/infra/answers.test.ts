/**
 * Grounded answers and session summaries on AWS: the retrieval function and the worker get the answer
 * model's settings and the model; retrieval the budget (the worker writes the table anyway).
 */
import { describe, expect, it } from 'vitest';
import { stageConfig } from '../../lib/config';
import { logicalId, type Statement, statementsOfRole, type Synthesized, synthesize } from './support/synth';

function retrievalOf(synth: Synthesized) {
  const fn = synth.stack.api.functions.get('retrieval');
  if (!fn) throw new Error('no retrieval function');
  const resource = synth.template.findResources('AWS::Lambda::Function')[logicalId(synth.stack, fn.function)];
  const variables = (resource?.Properties.Environment.Variables ?? {}) as Record<string, unknown>;
  const statements = statementsOfRole(synth.template, logicalId(synth.stack, fn.role));
  return { variables, statements };
}

const withAction = (statements: Statement[], action: string): Statement[] =>
  statements.filter((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]).includes(action));

/** UpdateItem grants other than the rate limit's request counters. */
const budgetUpdates = (statements: Statement[]): Statement[] =>
  withAction(statements, 'dynamodb:UpdateItem').filter((statement) => !JSON.stringify(statement).includes('#RATE#'));

describe('answer model on AWS', () => {
  it('is off by default: no settings, no Bedrock, no table writes for retrieval but its request counters', () => {
    const { variables, statements } = retrievalOf(synthesize());
    expect(Object.keys(variables).filter((name) => name.startsWith('KMEM_ANSWER'))).toEqual([]);
    expect(withAction(statements, 'bedrock:InvokeModel')).toEqual([]);
    expect(budgetUpdates(statements)).toEqual([]);
    expect(withAction(statements, 'dynamodb:UpdateItem')).toEqual([
      expect.objectContaining({ Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['A#*#RATE#*'] } } }),
    ]);
  });

  it('passes a Bedrock model to the retrieval function and the worker alone, grants that model only, and account budget updates', () => {
    const synth = synthesize({ config: { answerModel: { provider: 'bedrock', model: 'anthropic.claude-3-5-haiku-20241022-v1:0' } } });
    const { variables, statements } = retrievalOf(synth);
    expect(variables).toMatchObject({
      KMEM_ANSWER_MODEL_PROVIDER: 'bedrock',
      KMEM_ANSWER_MODEL: 'anthropic.claude-3-5-haiku-20241022-v1:0',
      KMEM_ANSWER_TIMEOUT_MS: '14000',
    });
    const invoke = withAction(statements, 'bedrock:InvokeModel');
    expect(invoke).toHaveLength(1);
    expect(JSON.stringify(invoke[0]?.Resource)).toContain('::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0');
    const update = budgetUpdates(statements);
    expect(update).toHaveLength(1);
    expect(update[0]).toMatchObject({ Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['A#*#ACCOUNT'] } } });

    const functions = synth.template.findResources('AWS::Lambda::Function');
    const withAnswers = Object.entries(functions).filter(([, fn]) =>
      JSON.stringify(fn.Properties.Environment ?? {}).includes('KMEM_ANSWER_MODEL'),
    );
    const worker = synth.stack.ingest.queueWorker.worker;
    if (!worker) throw new Error('no worker');
    expect(withAnswers.map(([id]) => id).sort()).toEqual(
      [
        logicalId(synth.stack, synth.stack.api.functions.get('retrieval')?.function ?? synth.stack),
        logicalId(synth.stack, worker.function),
      ].sort(),
    );
    const workerInvoke = withAction(statementsOfRole(synth.template, logicalId(synth.stack, worker.role)), 'bedrock:InvokeModel');
    expect(JSON.stringify(workerInvoke.map((statement) => statement.Resource))).toContain(
      '::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0',
    );
  });

  it('grants an inference profile and its model in the regions it routes to', () => {
    const { statements } = retrievalOf(
      synthesize({ config: { answerModel: { provider: 'bedrock', model: 'us.amazon.nova-lite-v1:0', timeoutSeconds: 10 } } }),
    );
    const resources = JSON.stringify(withAction(statements, 'bedrock:InvokeModel')[0]?.Resource);
    expect(resources).toContain(':inference-profile/us.amazon.nova-lite-v1:0');
    expect(resources).toContain(':bedrock:*::foundation-model/amazon.nova-lite-v1:0');
  });

  it('passes an OpenAI-compatible endpoint without any Bedrock grant', () => {
    const answerModel = {
      provider: 'openai',
      model: 'gpt-4o-mini',
      url: 'https://llm.example.com/v1',
      apiKeySecret: 'kmem/answer-key',
      timeoutSeconds: 12,
    };
    const { variables, statements } = retrievalOf(synthesize({ config: { answerModel } }));
    expect(variables).toMatchObject({
      KMEM_ANSWER_MODEL_PROVIDER: 'openai',
      KMEM_ANSWER_MODEL: 'gpt-4o-mini',
      KMEM_ANSWER_MODEL_URL: 'https://llm.example.com/v1',
      KMEM_ANSWER_MODEL_API_KEY_SECRET: 'kmem/answer-key',
      KMEM_ANSWER_TIMEOUT_MS: '12000',
    });
    expect(withAction(statements, 'bedrock:InvokeModel')).toEqual([]);
    expect(budgetUpdates(statements)).toHaveLength(1);
  });

  it('refuses a model without its settings, or a wait as long as the API allows', () => {
    expect(() => stageConfig('qa', { answerModel: { provider: 'bedrock' } })).toThrow(/answerModel\.model/);
    expect(() => stageConfig('qa', { answerModel: { provider: 'openai', model: 'm' } })).toThrow(/answerModel\.url/);
    expect(() => stageConfig('qa', { answerModel: { provider: 'bedrock', model: 'm', timeoutSeconds: 28 } })).toThrow(
      /answerModel\.timeoutSeconds: must be shorter/,
    );
  });
});
