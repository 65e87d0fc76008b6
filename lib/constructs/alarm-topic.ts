/**
 * The SNS topic every alarm notifies: encrypted with a customer-managed key (CloudWatch cannot publish to
 * a topic under the AWS-managed SNS key), TLS-only, publishable by CloudWatch alarms of this account.
 * Subscribe to it (email, chat, pager) after deploying; its ARN is a stack output.
 */
import { Stack } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/** The alarm topic and the alarm action that publishes to it. */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  readonly action: IAlarmAction;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const key = new Key(this, 'Key', {
      description: `kmem alarm topic encryption (${Stack.of(this).stackName})`,
      enableKeyRotation: true,
    });
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com', {
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
    });
    key.grant(cloudWatch, 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'Topic', { masterKey: key, enforceSSL: true });
    this.topic.grantPublish(cloudWatch);
    this.action = new SnsAction(this.topic);
  }
}
