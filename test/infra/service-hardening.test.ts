/**
 * Service-side hardening in the stack: traces without response bodies, unclaimed uploads expire, the
 * answer model's key stays in Secrets Manager (only its name in the template, read on that secret alone).
 */
import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { METRICS } from '../../functions/core/metrics';
import { stageConfig } from '../../lib/config';
import { logicalId, statementsOfRole, synthesize } from './support/synth';

describe('service hardening in the stack', () => {
  it('turns X-Ray response capture off on every kmem function', () => {
    const functions = Object.values(synthesize().template.findResources('AWS::Lambda::Function'));
    const kmem = functions.filter((fn) => JSON.stringify(fn.Properties.Environment ?? {}).includes('POWERTOOLS_SERVICE_NAME'));
    expect(kmem.length).toBeGreaterThan(8);
    for (const fn of kmem) expect(fn.Properties.Environment.Variables.POWERTOOLS_TRACER_CAPTURE_RESPONSE).toBe('false');
  });

  it('expires presigned uploads that no files/create took', () => {
    synthesize().template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ Prefix: 'incoming/', ExpirationInDays: 1, Status: 'Enabled' })]),
      },
    });
  });

  it('keeps the answer model key out of the template and lets retrieval read that one secret', () => {
    expect(() =>
      stageConfig('qa', { answerModel: { provider: 'openai', model: 'm', url: 'https://llm.example.com/v1', apiKey: 'sk-live-123' } }),
    ).toThrow(/answerModel\.apiKey: a key is not stored in the template/);
    const answerModel = { provider: 'openai', model: 'gpt-4o-mini', url: 'https://llm.example.com/v1', apiKeySecret: 'kmem/answer-key' };
    const synth = synthesize({ config: { answerModel } });
    const template = JSON.stringify(synth.template.toJSON());
    expect(template).not.toContain('KMEM_ANSWER_MODEL_API_KEY"');
    const fn = synth.stack.api.functions.get('retrieval');
    const statements = statementsOfRole(synth.template, logicalId(synth.stack, fn?.role ?? synth.stack));
    const reads = statements.filter((s) => JSON.stringify(s.Action).includes('secretsmanager:GetSecretValue'));
    expect(reads).toHaveLength(1);
    expect(JSON.stringify(reads[0]?.Resource)).toContain(':secret:kmem/answer-key-??????');
    const others = [...synth.stack.api.functions.entries()].filter(([group]) => group !== 'retrieval');
    for (const [, other] of others) {
      const text = JSON.stringify(statementsOfRole(synth.template, logicalId(synth.stack, other.role)));
      expect(text).not.toContain('secretsmanager');
    }
  });

  it('puts every service metric on the dashboard and alarms on file and webhook failure rates', () => {
    const synth = synthesize();
    const [dashboard] = Object.values(synth.template.findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard?.Properties.DashboardBody);
    for (const name of Object.keys(METRICS)) expect(body, name).toContain(name);
    expect(body).toContain('SEARCH(');
    const alarms = Object.values(synth.template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => JSON.stringify(alarm.Properties));
    const files = alarms.find((alarm) => alarm.includes('FilesFailed'));
    expect(files).toMatch(/100 \* bad \/ \(ok \+ bad\)/);
    expect(files).toContain('"Threshold":25');
    expect(alarms.find((alarm) => alarm.includes('WebhookDead'))).toContain('"Threshold":10');
  });
});
