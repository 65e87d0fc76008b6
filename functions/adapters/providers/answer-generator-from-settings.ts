/**
 * Answer model settings to the models that use it: none, an OpenAI-compatible chat endpoint, or Amazon
 * Bedrock Converse; as the grounded answer generator (retrieval) and as the session summarizer (the worker).
 */
import type { AnswerModelSettings } from '../../config';
import type { AnswerGenerator } from '../../core/answers/ports';
import type { SessionSummarizer } from '../../core/summaries/ports';
import { ModelAnswerGenerator } from '../answers/model-answer-generator';
import { ModelSessionSummarizer } from '../answers/model-session-summarizer';
import { BedrockConverseModel } from '../graph-extraction/bedrock-converse';
import { OpenAiChatModel } from '../graph-extraction/openai-chat';
import type { StructuredModel } from '../graph-extraction/structured-model';
import { secretReader } from '../secrets/secret-reader';
import type { ProviderContext } from './once';

/** The configured answer generator, its SDK client or HTTP settings with it (callers make it `once`). */
export function answerGeneratorFromSettings(settings: AnswerModelSettings, context: ProviderContext): AnswerGenerator | null {
  const model = answerModelFromSettings(settings, context);
  return model && settings.kind !== 'none' ? new ModelAnswerGenerator({ model, timeoutMs: settings.timeoutMs }) : null;
}

/** The configured answer model as the session summarizer (callers make it `once`). */
export function summarizerFromSettings(settings: AnswerModelSettings, context: ProviderContext): SessionSummarizer | null {
  const model = answerModelFromSettings(settings, context);
  return model && settings.kind !== 'none' ? new ModelSessionSummarizer({ model, timeoutMs: settings.timeoutMs }) : null;
}

function answerModelFromSettings(settings: AnswerModelSettings, context: ProviderContext): StructuredModel | null {
  switch (settings.kind) {
    case 'none':
      return null;
    case 'openai':
      return new OpenAiChatModel({
        baseUrl: settings.url,
        model: settings.model,
        timeoutMs: settings.timeoutMs,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(settings.apiKeySecret ? { apiKey: secretReader(settings.apiKeySecret, context.region) } : {}),
      });
    case 'bedrock':
      return new BedrockConverseModel({
        modelId: settings.model,
        region: context.region,
        requestTimeoutMs: settings.timeoutMs,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      });
  }
}
