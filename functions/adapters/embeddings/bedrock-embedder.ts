/**
 * Embedder adapter for Amazon Bedrock Titan text embeddings (`amazon.titan-embed-text-v2:0` by
 * default; v1 works too) through `InvokeModel`. Titan embeds one text per call, so texts go out with
 * bounded concurrency. The request is `{inputText, dimensions?, normalize: true}` (v2) and the answer
 * `{embedding: number[]}`; vectors are normalised again here so v1 answers are unit length as well.
 * Settings come from the constructor; `endpoint` points the SDK client elsewhere (tests, VPC endpoints).
 * The client speaks HTTP/1.1 (the SDK's default for this service is HTTP/2, which InvokeModel does not
 * need and which plain HTTP test servers and some proxies do not speak).
 */
import { Agent } from 'node:https';
import type { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { mapConcurrently } from '../../core/concurrency';
import type { Embedder } from '../../engine';
import { EmbedderError, toUnitVector } from './embedding-answers';
import { loadOnce } from '../load-once';

export interface BedrockEmbedderOptions {
  region: string;
  /** Default `amazon.titan-embed-text-v2:0`. */
  modelId?: string;
  /** 256, 512 or 1024 for Titan v2 (default 1024); 1536 for v1. */
  dimensions?: number;
  /** Custom endpoint URL (tests, VPC interface endpoints). */
  endpoint?: string;
  /** Static credentials (tests); the default provider chain otherwise. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Calls in flight at once; default 8. */
  concurrency?: number;
  /** An existing client to use instead of building one. */
  client?: BedrockRuntimeClient;
}

const DEFAULT_MODEL = 'amazon.titan-embed-text-v2:0';

export class BedrockEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  private readonly modelId: string;
  /** The client and its command, made at the first call: the SDK module loads then, not at import. */
  private readonly sdk: () => Promise<{ client: BedrockRuntimeClient; InvokeModel: typeof InvokeModelCommand }>;
  private readonly isV1: boolean;

  constructor(private readonly options: BedrockEmbedderOptions) {
    this.modelId = options.modelId ?? DEFAULT_MODEL;
    this.isV1 = this.modelId.includes('titan-embed-text-v1');
    this.dimensions = options.dimensions ?? (this.isV1 ? 1536 : 1024);
    this.name = `bedrock/${this.modelId}/${this.dimensions}`;
    this.sdk = loadOnce(async () => {
      const { BedrockRuntimeClient, InvokeModelCommand } = await import('@aws-sdk/client-bedrock-runtime');
      const client =
        options.client ??
        new BedrockRuntimeClient({
          region: options.region,
          requestHandler: new NodeHttpHandler({
            httpsAgent: new Agent({ keepAlive: true, maxSockets: 32 }),
            connectionTimeout: 5_000,
            requestTimeout: 30_000,
          }),
          ...(options.endpoint ? { endpoint: options.endpoint } : {}),
          ...(options.credentials ? { credentials: options.credentials } : {}),
        });
      return { client, InvokeModel: InvokeModelCommand };
    });
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return mapConcurrently(texts, this.options.concurrency ?? 8, (text) => this.embedOne(text));
  }

  private async embedOne(text: string): Promise<Float32Array> {
    const request = this.isV1 ? { inputText: text } : { inputText: text, dimensions: this.dimensions, normalize: true };
    const { client, InvokeModel } = await this.sdk();
    let body: Uint8Array;
    try {
      const answer = await client.send(
        new InvokeModel({
          modelId: this.modelId,
          contentType: 'application/json',
          accept: 'application/json',
          body: new TextEncoder().encode(JSON.stringify(request)),
        }),
      );
      body = answer.body;
    } catch (error) {
      throw new EmbedderError(`Bedrock ${this.modelId} InvokeModel failed: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw new EmbedderError(`Bedrock ${this.modelId} answered with malformed JSON`);
    }
    return toUnitVector((parsed as { embedding?: unknown } | null)?.embedding, this.dimensions, `Bedrock ${this.modelId}`);
  }
}
