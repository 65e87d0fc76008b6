/**
 * Reranker adapter for Amazon Bedrock's reranking models (`amazon.rerank-v1:0`, `cohere.rerank-v3-5:0`)
 * through the Agent Runtime `Rerank` API: one text query, the candidates as inline text sources, and
 * `numberOfResults` = every candidate; the answer's `results: [{index, relevanceScore}]` score the
 * sources by their position (pages, if Bedrock splits the answer, are followed by `nextToken`). A model id
 * becomes the foundation-model ARN of the client's region; a full ARN is used as is. The whole call,
 * retries included, is cut at `timeoutMs`. The client speaks HTTP/1.1 (plain HTTP test servers and some
 * proxies speak nothing else) and signs with the default credential chain.
 */
import { Agent } from 'node:https';
import type { BedrockAgentRuntimeClient, RerankCommand, RerankResult } from '@aws-sdk/client-bedrock-agent-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { RerankerError, type Relevance, type Reranker } from '../../core/reranking/ports';
import { checkedRelevance } from './relevance-answers';
import { loadOnce } from '../load-once';

export interface BedrockRerankerOptions {
  region: string;
  /** A model id (`cohere.rerank-v3-5:0`) or a model ARN. */
  model: string;
  /** The best fused candidates handed over at most (Bedrock takes 1,000 sources at most). */
  candidates: number;
  timeoutMs: number;
  /** Custom endpoint URL (tests, VPC interface endpoints). */
  endpoint?: string;
  /** Static credentials (tests); the default provider chain otherwise. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** Pages followed at most (Bedrock answers every result in one page in practice). */
const MAX_PAGES = 20;

export class BedrockReranker implements Reranker {
  readonly name: string;
  readonly candidates: number;
  /** The client and its command, made at the first call: the SDK module loads then, not at import. */
  private readonly sdk: () => Promise<{ client: BedrockAgentRuntimeClient; Rerank: typeof RerankCommand }>;
  private readonly modelArn: string;

  constructor(private readonly options: BedrockRerankerOptions) {
    this.name = `bedrock/${options.model}`;
    this.candidates = options.candidates;
    this.modelArn = options.model.startsWith('arn:')
      ? options.model
      : `arn:aws:bedrock:${options.region}::foundation-model/${options.model}`;
    this.sdk = loadOnce(async () => {
      const { BedrockAgentRuntimeClient, RerankCommand } = await import('@aws-sdk/client-bedrock-agent-runtime');
      const client = new BedrockAgentRuntimeClient({
        region: options.region,
        maxAttempts: 2,
        requestHandler: new NodeHttpHandler({
          httpsAgent: new Agent({ keepAlive: true }),
          connectionTimeout: Math.min(options.timeoutMs, 5_000),
          requestTimeout: options.timeoutMs,
        }),
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
      });
      return { client, Rerank: RerankCommand };
    });
  }

  async rerank(query: string, texts: readonly string[]): Promise<readonly Relevance[]> {
    if (texts.length === 0) return [];
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const results: RerankResult[] = [];
    let nextToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.send(query, texts, nextToken, signal);
      results.push(...(answer.results ?? []));
      nextToken = answer.nextToken;
      if (!nextToken) break;
    }
    if (nextToken) throw new RerankerError(`Bedrock Rerank ${this.options.model} still paging after ${MAX_PAGES} pages`);
    return checkedRelevance(results, texts.length, `Bedrock Rerank ${this.options.model}`, {
      index: (result) => result.index,
      score: (result) => result.relevanceScore,
    });
  }

  private async send(query: string, texts: readonly string[], nextToken: string | undefined, abortSignal: AbortSignal) {
    const { client, Rerank } = await this.sdk();
    const command = new Rerank({
      queries: [{ type: 'TEXT', textQuery: { text: query } }],
      sources: texts.map((text) => ({ type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text } } })),
      rerankingConfiguration: {
        type: 'BEDROCK_RERANKING_MODEL',
        bedrockRerankingConfiguration: { numberOfResults: texts.length, modelConfiguration: { modelArn: this.modelArn } },
      },
      ...(nextToken ? { nextToken } : {}),
    });
    try {
      return await client.send(command, { abortSignal });
    } catch (error) {
      throw new RerankerError(`Bedrock Rerank ${this.options.model} failed: ${(error as Error).message}`, { cause: error });
    }
  }
}
