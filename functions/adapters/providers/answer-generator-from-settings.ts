/** Answer model settings to answer generator: none, an OpenAI-compatible chat endpoint, or Amazon Bedrock Converse. */
import type { AnswerModelSettings } from '../../config';
import type { AnswerGenerator } from '../../core/answers/ports';
import { ModelAnswerGenerator } from '../answers/model-answer-generator';
import { BedrockConverseModel } from '../graph-extraction/bedrock-converse';
import { OpenAiChatModel } from '../graph-extraction/openai-chat';
import { secretReader } from '../secrets/secret-reader';
import type { ProviderContext } from './once';

/** The configured answer generator, its SDK client or HTTP settings with it (callers make it `once`). */
export function answerGeneratorFromSettings(settings: AnswerModelSettings, context: ProviderContext): AnswerGenerator | null {
  switch (settings.kind) {
    case 'none':
      return null;
    case 'openai': {
      const model = new OpenAiChatModel({
        baseUrl: settings.url,
        model: settings.model,
        timeoutMs: settings.timeoutMs,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(settings.apiKeySecret ? { apiKey: secretReader(settings.apiKeySecret, context.region) } : {}),
      });
      return new ModelAnswerGenerator({ model, timeoutMs: settings.timeoutMs });
    }
    case 'bedrock': {
      const model = new BedrockConverseModel({
        modelId: settings.model,
        region: context.region,
        requestTimeoutMs: settings.timeoutMs,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      });
      return new ModelAnswerGenerator({ model, timeoutMs: settings.timeoutMs });
    }
  }
}
