/** The OpenAI chat-completions reply the doubles on 127.0.0.1 send (graph extraction and answers). */
import type { Reply } from './json-server';

/** A chat completion whose message content is `content` (a JSON answer, or anything else). */
export function chatCompletion(content: string, totalTokens = 321, finishReason = 'stop'): Reply {
  return {
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
      usage: { prompt_tokens: totalTokens - 21, completion_tokens: 21, total_tokens: totalTokens },
    },
  };
}
