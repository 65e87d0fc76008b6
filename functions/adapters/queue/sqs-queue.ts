import { ChangeMessageVisibilityCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueuePort, RedeliveryPort } from '../../core/ports';

/** The ingestion queue on AWS. */
export class SqsQueue implements QueuePort, RedeliveryPort {
  constructor(
    private readonly client: SQSClient,
    private readonly url: string,
  ) {}

  async send(body: unknown, options?: { delaySeconds?: number }): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.url,
        MessageBody: JSON.stringify(body),
        DelaySeconds: options?.delaySeconds,
      }),
    );
  }

  async retryIn(receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({ QueueUrl: this.url, ReceiptHandle: receiptHandle, VisibilityTimeout: Math.round(seconds) }),
    );
  }
}
