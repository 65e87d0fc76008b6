/** Stage configuration: presets, overrides from context, and failures at synth instead of at deploy. */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { stageConfig } from '../../lib/config';
import { ServiceFunction } from '../../lib/constructs/service-function';
import { FIXTURE_WORKER } from './support/synth';

describe('stageConfig', () => {
  it('gives an unknown stage the defaults', () => {
    const config = stageConfig('qa');
    expect(config).toMatchObject({ stage: 'qa', logRetentionDays: 30, logLevel: 'INFO', defaultTokenLimit: 1_000_000 });
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
});

describe('function environment', () => {
  it('fails the synth on a value the function would reject at cold start', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Env');
    expect(
      () =>
        new ServiceFunction(stack, 'Fn', {
          name: 'worker',
          entry: FIXTURE_WORKER,
          description: 'test',
          memoryMb: 128,
          timeout: Duration.seconds(3),
          environment: { KMEM_DEFAULT_TOKEN_LIMIT: 'lots' },
          config: stageConfig('qa'),
        }),
    ).toThrow(/KMEM_DEFAULT_TOKEN_LIMIT/);
  });
});
