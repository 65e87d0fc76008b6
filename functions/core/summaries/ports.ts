/**
 * The port a generative model implements to summarise a session abstractively (with an answer model
 * configured). Adapter: functions/adapters/answers/model-session-summarizer.ts, over the same
 * OpenAI-compatible or Bedrock model as grounded answers. It throws `AnswerModelError` when the model
 * fails; the session then keeps its extractive summary.
 */

/** What the model is shown of a session: bounded, whatever the session's length. */
export interface SummaryEvidence {
  /** The model's summary as of the last update, when there was one: it is revised, not rewritten from nothing. */
  previous?: { summary: string; keyPoints: readonly string[] };
  /** The session's most central sentences, in the order they were said (the extractive pool). */
  central: readonly string[];
  /** The messages added since the last update (the latest last), as many as the prompt holds. */
  recent: ReadonlyArray<{ role: string; content: string; createdAt: string }>;
}

export interface ModelSummary {
  summary: string;
  keyPoints: string[];
  /** Tokens the model billed, prompt and completion. */
  tokensUsed: number;
}

export interface SessionSummarizer {
  /** "openai-compatible/<model>", "bedrock/<model>". */
  readonly name: string;
  /** The most tokens one call may bill (what the account's budget reserves). */
  maxTokens(evidence: SummaryEvidence): number;
  summarize(evidence: SummaryEvidence): Promise<ModelSummary>;
}
