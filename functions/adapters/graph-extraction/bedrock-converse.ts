/**
 * `StructuredModel` over Amazon Bedrock's Converse API (`ConverseCommand`: `POST /model/{modelId}/converse`).
 * The answer schema goes either as a forced tool (`outputMode: 'tool'`, the default: `toolConfig` with
 * one tool whose `inputSchema.json` is the schema and `toolChoice: {tool}`; the answer is the
 * `toolUse.input` block; supported by Claude, Nova, Mistral Large and most tool-capable models) or as
 * structured output (`outputMode: 'output-format'`: `outputConfig.textFormat` json_schema; the answer
 * is the text). Tokens are `usage.totalTokens`; `stopReason: 'max_tokens'` means the answer was cut.
 * The client speaks HTTP/1.1 and makes one try per call: retries are the extractor's (`retry.ts`).
 */
import { Agent } from 'node:https';
import type {
  BedrockRuntimeClient,
  BedrockRuntimeClientConfig,
  ConverseCommand,
  ConverseCommandInput,
  ConverseCommandOutput,
  ToolInputSchema,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { estimateCallTokens, type StructuredModel, type StructuredReply, type StructuredRequest } from './structured-model';
import { awsCallError } from './retry';
import { loadOnce } from '../load-once';

export interface BedrockConverseModelOptions {
  /** A model id or inference profile id/ARN, e.g. `anthropic.claude-3-5-haiku-20241022-v1:0`, `us.amazon.nova-lite-v1:0`. */
  readonly modelId: string;
  readonly region: string;
  /** How the schema is imposed; default 'tool'. */
  readonly outputMode?: 'tool' | 'output-format';
  /** Default 0. */
  readonly temperature?: number;
  /** Custom endpoint URL (tests, VPC interface endpoints). */
  readonly endpoint?: string;
  /** Static credentials (tests); the default provider chain otherwise. */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Per-request timeout; default 120 s. */
  readonly requestTimeoutMs?: number;
  /** An existing client instead of building one (its own retry settings then apply too). */
  readonly client?: BedrockRuntimeClient;
}

/** The client's settings: one try per call (the extractor retries), keep-alive HTTP/1.1 with the request timeout. */
function clientConfig(options: BedrockConverseModelOptions): BedrockRuntimeClientConfig {
  return {
    region: options.region,
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler({
      httpsAgent: new Agent({ keepAlive: true, maxSockets: 16 }),
      connectionTimeout: 5_000,
      requestTimeout: options.requestTimeoutMs ?? 120_000,
    }),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
}

type JsonDocument = NonNullable<ToolInputSchema.JsonMember['json']>;

const REFUSALS = new Set(['content_filtered', 'guardrail_intervened']);
const MALFORMED = new Set(['malformed_model_output', 'malformed_tool_use']);

export class BedrockConverseModel implements StructuredModel {
  readonly name: string;
  /** The client and its command, made at the first call: the SDK module loads then, not at import. */
  private readonly sdk: () => Promise<{ client: BedrockRuntimeClient; Converse: typeof ConverseCommand }>;

  constructor(private readonly options: BedrockConverseModelOptions) {
    this.name = `bedrock/${options.modelId}`;
    this.sdk = loadOnce(async () => {
      const { BedrockRuntimeClient, ConverseCommand } = await import('@aws-sdk/client-bedrock-runtime');
      return { client: options.client ?? new BedrockRuntimeClient(clientConfig(options)), Converse: ConverseCommand };
    });
  }

  async complete(request: StructuredRequest): Promise<StructuredReply> {
    const { client, Converse } = await this.sdk();
    let output: ConverseCommandOutput;
    try {
      output = await client.send(new Converse(this.input(request)));
    } catch (error) {
      throw awsCallError(`Amazon Bedrock Converse (${this.options.modelId})`, error);
    }
    const blocks = output.output?.message?.content ?? [];
    const toolInput = blocks.find((block) => block.toolUse?.name === request.schemaName)?.toolUse?.input;
    const text = blocks.map((block) => block.text ?? '').join('');
    const content: unknown = toolInput ?? (text === '' ? undefined : text);
    const stop = output.stopReason ?? '';
    const counted = output.usage?.totalTokens ?? (output.usage?.inputTokens ?? 0) + (output.usage?.outputTokens ?? 0);
    return {
      content: MALFORMED.has(stop) ? undefined : content,
      tokensUsed: counted > 0 ? counted : estimateCallTokens(request.system, request.user, text || JSON.stringify(toolInput ?? '')),
      truncated: stop === 'max_tokens',
      ...(REFUSALS.has(stop) ? { refusal: `stopReason ${stop}` } : {}),
    };
  }

  private input(request: StructuredRequest): ConverseCommandInput {
    const base: ConverseCommandInput = {
      modelId: this.options.modelId,
      system: [{ text: request.system }],
      messages: [{ role: 'user', content: [{ text: request.user }] }],
      inferenceConfig: { maxTokens: request.maxOutputTokens, temperature: this.options.temperature ?? 0 },
    };
    if (this.options.outputMode === 'output-format') {
      const jsonSchema = { name: request.schemaName, schema: JSON.stringify(request.jsonSchema) };
      return { ...base, outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema } } } };
    }
    const tool = {
      toolSpec: {
        name: request.schemaName,
        description: request.schemaDescription ?? 'Record the entities and relations found in the text chunks.',
        inputSchema: { json: request.jsonSchema as JsonDocument },
      },
    };
    return { ...base, toolConfig: { tools: [tool], toolChoice: { tool: { name: request.schemaName } } } };
  }
}
