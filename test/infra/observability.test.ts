/** Alarms per route and method, API-wide and on ingestion, notifying an encrypted topic; the dashboard. */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../functions/catalog';
import { resourcePath } from '../../lib/constructs/catalog-routes';
import { logicalId, type Synthesized, synthesize } from './support/synth';

let synth: Synthesized;

beforeAll(() => {
  synth = synthesize();
});

const apiDimensions = (route?: (typeof catalog)[number]) => {
  const api = synth.stack.api.restApi;
  const dimensions = [
    { Name: 'ApiName', Value: api.restApiName },
    ...(route
      ? [
          { Name: 'Method', Value: route.method },
          { Name: 'Resource', Value: resourcePath(route.path) },
        ]
      : []),
    { Name: 'Stage', Value: { Ref: logicalId(synth.stack, api.deploymentStage) } },
  ];
  return Match.arrayEquals(dimensions);
};

describe('API alarms', () => {
  it.each(catalog.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s has a p99 latency and a 5XX alarm',
    (_name, route) => {
      const { alarms } = synth.stack.config;
      synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/ApiGateway',
        MetricName: 'Latency',
        ExtendedStatistic: 'p99',
        Dimensions: apiDimensions(route),
        Threshold: alarms.latencyP99Ms,
      });
      synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/ApiGateway',
        MetricName: '5XXError',
        Statistic: 'Sum',
        Dimensions: apiDimensions(route),
        Threshold: alarms.serverErrors,
      });
    },
  );

  it('has API-wide latency and 5XX alarms', () => {
    for (const metricName of ['Latency', '5XXError']) {
      const alarm = { MetricName: metricName, Dimensions: apiDimensions() };
      synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', alarm);
    }
  });
});

describe('alarm notifications', () => {
  it('sends every alarm and recovery to the alarm topic', () => {
    const topic = synth.stack.alarmTopic?.topic;
    expect(topic).toBeDefined();
    const topicRef = topic && { Ref: logicalId(synth.stack, topic) };
    const actions = { AlarmActions: [topicRef], OKActions: [topicRef] };
    synth.template.allResourcesProperties('AWS::CloudWatch::Alarm', actions);
  });

  it('encrypts the topic with a rotating key CloudWatch may use, and requires TLS', () => {
    synth.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    synth.template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          }),
        ]),
      },
    });
    synth.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Action: 'sns:Publish',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
          }),
        ]),
      },
    });
  });

  it('can leave the topic out', () => {
    const quiet = synthesize({ config: { alarms: { topic: false, perRoute: false } } });
    quiet.template.resourceCountIs('AWS::SNS::Topic', 0);
    quiet.template.allResourcesProperties('AWS::CloudWatch::Alarm', { AlarmActions: Match.absent() });
    const perRoute = { Dimensions: Match.arrayWith([Match.objectLike({ Name: 'Method' })]) };
    quiet.template.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', perRoute, 0);
  });
});

describe('dashboard', () => {
  it('shows the API, each route, each function, the queue, dead letters and the alarms', () => {
    const dashboards = synth.template.findResources('AWS::CloudWatch::Dashboard');
    expect(Object.keys(dashboards)).toHaveLength(1);
    const body = JSON.stringify(Object.values(dashboards)[0]?.Properties.DashboardBody);
    const titles = [
      'API requests',
      'p99 latency by route',
      '5XX by route',
      'Function errors',
      'Ingestion queue depth',
      'Oldest ingestion message (s)',
      'Dead letters',
      'Alarms',
    ];
    for (const title of titles) expect(body).toContain(title);
    for (const route of catalog) expect(body).toContain(`${route.method} ${resourcePath(route.path)}`);
  });
});
