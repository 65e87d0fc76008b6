/**
 * Replies of the two protocols an answer model speaks, for the doubles on 127.0.0.1 (the JSON server of
 * the graph-extraction contract tests): an OpenAI chat completion and a Bedrock Converse answer whose
 * tool input (or text) is the answer.
 */
import { chatCompletion } from '../../graph-extraction/support/chat-completion';
import type { RecordedRequest, Reply } from '../../graph-extraction/support/json-server';

export { chatCompletion };

export const chatAnswer = (answer: string, totalTokens?: number): Reply => chatCompletion(JSON.stringify({ answer }), totalTokens);

/** A Converse answer through the forced `grounded_answer` tool. */
export function converseAnswer(answer: string, totalTokens = 500, stopReason = 'tool_use'): Reply {
  return {
    body: {
      output: {
        message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'grounded_answer', input: { answer } } }] },
      },
      stopReason,
      usage: { inputTokens: totalTokens - 50, outputTokens: 50, totalTokens },
      metrics: { latencyMs: 12 },
    },
  };
}

/** A 500 in the protocol's usual form. */
export const serverError: Reply = {
  status: 500,
  headers: { 'x-amzn-errortype': 'InternalServerException' },
  body: { message: 'model is down' },
};

export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens: number;
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
}

export interface ConverseBody {
  system: Array<{ text: string }>;
  messages: Array<{ role: string; content: Array<{ text: string }> }>;
  inferenceConfig: { maxTokens: number; temperature: number };
  toolConfig: {
    tools: Array<{ toolSpec: { name: string; description: string; inputSchema: { json: Record<string, unknown> } } }>;
    toolChoice: { tool: { name: string } };
  };
}

/** The user message of a chat request: the question and the numbered evidence. */
export const chatQuestion = (request: RecordedRequest | undefined): string =>
  (request?.body as ChatBody | undefined)?.messages[1]?.content ?? '';
