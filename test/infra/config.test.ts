/** Stage configuration: presets, overrides from context, and failures at synth instead of at deploy. */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { stageConfig } from '../../lib/config';
import { type FunctionEnvironment, ServiceFunction } from '../../lib/constructs/service-function';
import { FIXTURE_WORKER, logicalId, synthesize } from './support/synth';

describe('stageConfig', () => {
  it('gives an unknown stage the defaults', () => {
    const config = stageConfig('qa');
    expect(config).toMatchObject({ stage: 'qa', logRetentionDays: 30, logLevel: 'INFO' });
    expect(config.worker).toMatchObject({
      memoryMb: 3008,
      timeoutMinutes: 15,
      ephemeralStorageMb: 4096,
      maxReceiveCount: 5,
    });
    expect(config.alarms).toMatchObject({ topic: true, perRoute: true });
  });

  it('applies the stage preset, then overrides section by section', () => {
    const config = stageConfig('prod', { api: { throttleBurstLimit: 999 }, alarms: { latencyP99Ms: 1500 } });
    expect(config.api).toMatchObject({ throttleRateLimit: 200, throttleBurstLimit: 999 });
    expect(config.worker.maxConcurrency).toBe(50);
    expect(config.alarms.latencyP99Ms).toBe(1500);
    expect(config.logRetentionDays).toBe(90);
  });

  it('rejects invalid values with the field named', () => {
    expect(() => stageConfig('qa', { logRetentionDays: 31 })).toThrow(/logRetentionDays/);
    expect(() => stageConfig('qa', { worker: { timeoutMinutes: 16 } })).toThrow(/worker\.timeoutMinutes/);
    expect(() => stageConfig('Bad Stage')).toThrow(/stage/);
    expect(() => stageConfig('qa', { api: { timeoutSeconds: 29 } })).toThrow(/api\.timeoutSeconds/);
  });

  it("refuses a kmem artefact bucket in importBuckets: the name CloudFormation gives this stage's or another's", () => {
    const synth = synthesize({ stage: 'qa' });
    const logical = logicalId(synth.stack, synth.stack.data.bucket).toLowerCase(); // dataartefacts<hash>
    expect(logical).toMatch(/^dataartefacts[0-9a-f]{8}$/);
    for (const name of [`kmem-qa-${logical}-1a2b3c4d5e6f`, `kmem-prod-${logical}-9z8y7x6w5v4u`]) {
      expect(() => stageConfig('qa', { importBuckets: ['corp-docs', name] })).toThrow(
        /importBuckets\.1: is a kmem artefact bucket \(it holds every account's files\), never an import source/,
      );
    }
    expect(stageConfig('qa', { importBuckets: ['corp-docs'] }).importBuckets).toEqual(['corp-docs']);
  });
});

describe('function environment', () => {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Env');
  const data = {
    KMEM_STAGE: 'qa',
    KMEM_TABLE_NAME: 'kmem-qa',
    KMEM_BUCKET_NAME: 'kmem-qa-artefacts',
    KMEM_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/1/q',
  };
  const worker = (id: string, environment: FunctionEnvironment) => () =>
    new ServiceFunction(stack, id, {
      name: 'worker',
      entry: FIXTURE_WORKER,
      description: 'test',
      memoryMb: 128,
      timeout: Duration.seconds(3),
      environment,
      config: stageConfig('qa'),
    });

  it('fails the synth on a value the function would reject at cold start', () => {
    expect(worker('Bad', { ...data, KMEM_WORK_MAX_ATTEMPTS: 'lots' })).toThrow(/KMEM_WORK_MAX_ATTEMPTS=lots/);
  });

  it('fails the synth on a setting the function requires on Lambda left out', () => {
    const { KMEM_TABLE_NAME: _left, ...withoutTable } = data;
    expect(worker('Missing', withoutTable)).toThrow(/lacks KMEM_TABLE_NAME/);
  });

  it('fails the synth on a setting the function does not read', () => {
    expect(worker('Stray', { ...data, KMEM_MAX_BODY_KB: '10' })).toThrow(/KMEM_MAX_BODY_KB is not one of its settings/);
  });

  it('takes the settings the function reads', () => {
    expect(worker('Good', { ...data, KMEM_WORK_MAX_ATTEMPTS: '3' })).not.toThrow();
  });
});
