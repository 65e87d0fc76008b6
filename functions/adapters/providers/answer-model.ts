/** Settings to answer generator: none, an OpenAI-compatible chat endpoint, or Amazon Bedrock Converse. */
import type { Config } from '../../config';
import type { AnswerGenerator } from '../../core/answers/ports';
import { ModelAnswerGenerator } from '../answers/model-answer-generator';
import { BedrockConverseModel } from '../graph-extraction/bedrock-converse';
import { OpenAiChatModel } from '../graph-extraction/openai-chat';
import { secretReader } from '../secrets/secret-reader';
import { once } from './once';

/** The configured answer generator, made once (its SDK client or HTTP settings with it). */
export function answerGeneratorOf(config: Pick<Config, 'answerModel' | 'region'>): () => AnswerGenerator | null {
  return once(() => createAnswerGenerator(config));
}

export function createAnswerGenerator(config: Pick<Config, 'answerModel' | 'region'>): AnswerGenerator | null {
  const settings = config.answerModel;
  switch (settings.kind) {
    case 'none':
      return null;
    case 'openai': {
      const model = new OpenAiChatModel({
        baseUrl: settings.url,
        model: settings.model,
        timeoutMs: settings.timeoutMs,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(settings.apiKeySecret ? { apiKey: secretReader(settings.apiKeySecret, config.region) } : {}),
      });
      return new ModelAnswerGenerator({ model, timeoutMs: settings.timeoutMs });
    }
    case 'bedrock': {
      const model = new BedrockConverseModel({
        modelId: settings.model,
        region: config.region,
        requestTimeoutMs: settings.timeoutMs,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      });
      return new ModelAnswerGenerator({ model, timeoutMs: settings.timeoutMs });
    }
  }
}
