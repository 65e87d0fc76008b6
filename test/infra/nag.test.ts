/**
 * cdk-nag 3: the AwsSolutions and Serverless packs run as validation plugins at synth. The app (with the
 * worker, a stand-in until functions/worker/handler.ts exists) must have no unacknowledged finding, and
 * the synth must pass CDK's CloudFormation validation too. A bare stack shows the packs do find things.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesized, synthesize } from './support/synth';

let synth: Synthesized;

beforeAll(() => {
  synth = synthesize({ cloudFormationValidation: true });
});

interface ReportViolation {
  ruleName: string;
  severity: string;
}

interface ValidationReport {
  pluginReports: { pluginName: string; violations: ReportViolation[] }[];
}

describe('cdk-nag', () => {
  it('runs both packs on the app', () => {
    expect(synth.packs.map((pack) => pack.readPackName)).toEqual(['AwsSolutions', 'Serverless']);
    expect(synth.stack.ingest.queueWorker.worker).toBeDefined();
  });

  it.each(['AwsSolutions', 'Serverless'])('%s finds nothing unacknowledged', (name) => {
    const pack = synth.packs.find((p) => p.readPackName === name);
    const report = pack?.validateScope(synth.app);
    const findings = report?.violations.map((v) => {
      const paths = v.violatingResources.map((r) => r.constructPath).join(', ');
      return `${v.severity} ${v.ruleName}: ${paths}`;
    });
    expect(findings).toEqual([]);
  });

  it('leaves no finding in the synthesized validation report', () => {
    const file = join(synth.assembly.directory, 'validation-report.json');
    const report = JSON.parse(readFileSync(file, 'utf8')) as ValidationReport;
    const violations = report.pluginReports.flatMap((plugin) =>
      plugin.violations.map((v) => `${plugin.pluginName}: ${v.severity} ${v.ruleName}`),
    );
    expect(violations).toEqual([]);
  });

  it('reports findings on a bare stack (the check can fail)', () => {
    const app = new App({ builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'Bare');
    new Bucket(stack, 'Bucket');
    new Queue(stack, 'Queue');
    const aws = new AwsSolutionsChecks(app).validateScope(app).violations.map((v) => v.ruleName);
    expect(aws).toEqual(expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10', 'AwsSolutions-SQS3']));
    const serverless = new ServerlessChecks(app).validateScope(app).violations.map((v) => v.ruleName);
    expect(serverless).toContain('Serverless-SQSRedrivePolicy');
  });

  it('honours an acknowledgement only for the acknowledged finding', () => {
    const app = new App({ builtinCloudFormationValidation: false });
    const bucket = new Bucket(new Stack(app, 'Acked'), 'Bucket');
    Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: 'test' });
    const names = new AwsSolutionsChecks(app).validateScope(app).violations.map((v) => v.ruleName);
    expect(names).not.toContain('AwsSolutions-S1');
    expect(names).toContain('AwsSolutions-S10');
  });
});
