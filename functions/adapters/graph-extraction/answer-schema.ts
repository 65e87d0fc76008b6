/**
 * The answer a model must give, as one zod schema per ontology: the JSON schema sent with the request
 * (OpenAI `response_format`, Bedrock tool input / output format) is generated from it, and every answer
 * is validated with it. Entity types and fact kinds are enums from the memory's ontology schema.
 *
 *   { "chunks": [ { "chunk": 0,
 *       "entities":  [ { "text": "Marie Curie", "type": "person" } ],
 *       "relations": [ { "subject": "Marie Curie", "predicate": "won", "object": "Nobel Prize",
 *                        "sentence": "Marie Curie won the Nobel Prize in 1903.", "kind": "fact" } ] } ] }
 *
 * The wire schema has no length or count limits (strict structured-output modes reject some
 * keywords); grounding (`ground-chunk.ts`) bounds what it keeps.
 */
import { z } from 'zod';
import type { OntologySchema } from '../../engine/graph';

function buildAnswerSchema(schema: OntologySchema) {
  const types = Object.keys(schema.types) as [string, ...string[]];
  const factKinds = ['fact', ...schema.factKinds.map((rule) => rule.kind)] as [string, ...string[]];
  const entity = z.object({
    text: z.string().describe('The entity exactly as written in the chunk (same spelling and capitalisation)'),
    type: z.enum(types).describe('The entity type'),
  });
  const relation = z.object({
    subject: z.string().describe('The `text` of the subject entity'),
    predicate: z.string().describe('A short lowercase verb phrase, e.g. "won", "was born in", "fixes"'),
    object: z.string().describe('The `text` of the object entity'),
    sentence: z.string().describe('The sentence stating the relation, copied verbatim from the chunk'),
    kind: z.enum(factKinds).describe('The kind of statement'),
  });
  const chunk = z.object({
    chunk: z.number().describe('The chunk number given in the request'),
    entities: z.array(entity),
    relations: z.array(relation),
  });
  return z.object({ chunks: z.array(chunk) });
}

type AnswerSchema = ReturnType<typeof buildAnswerSchema>;
type ModelAnswer = z.infer<AnswerSchema>;
export type ChunkAnswer = ModelAnswer['chunks'][number];

const cache = new Map<string, { zod: AnswerSchema; json: Record<string, unknown> }>();

function compiled(schema: OntologySchema): { zod: AnswerSchema; json: Record<string, unknown> } {
  let entry = cache.get(schema.name);
  if (entry === undefined) {
    const zod = buildAnswerSchema(schema);
    const { $schema: _dialect, ...json } = z.toJSONSchema(zod) as Record<string, unknown>;
    entry = { zod, json };
    cache.set(schema.name, entry);
  }
  return entry;
}

/** The zod schema answers are validated with. */
function answerSchema(schema: OntologySchema): AnswerSchema {
  return compiled(schema).zod;
}

/** The JSON schema sent to the model (object root, every property required, no additional properties). */
export function answerJsonSchema(schema: OntologySchema): Record<string, unknown> {
  return compiled(schema).json;
}

export type ParsedAnswer =
  | { readonly ok: true; readonly chunks: ReadonlyMap<number, ChunkAnswer> }
  | { readonly ok: false; readonly problem: string };

/**
 * Validates a model's answer (a JSON string, possibly fenced in ```json, or an already parsed value)
 * and checks that it answers exactly the chunks asked for.
 */
export function parseAnswer(content: unknown, schema: OntologySchema, expectedChunks: readonly number[]): ParsedAnswer {
  let value = content;
  if (content === undefined || content === null || content === '') return { ok: false, problem: 'empty answer' };
  if (typeof content === 'string') {
    try {
      value = JSON.parse(stripFence(content));
    } catch {
      return { ok: false, problem: `not JSON: ${JSON.stringify(content.slice(0, 80))}` };
    }
  }
  const parsed = answerSchema(schema).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `schema mismatch at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}` };
  }
  const chunks = new Map<number, ChunkAnswer>();
  for (const chunk of parsed.data.chunks) {
    if (!expectedChunks.includes(chunk.chunk)) return { ok: false, problem: `answer for chunk ${chunk.chunk}, which was not asked for` };
    if (chunks.has(chunk.chunk)) return { ok: false, problem: `two answers for chunk ${chunk.chunk}` };
    chunks.set(chunk.chunk, chunk);
  }
  const missing = expectedChunks.filter((index) => !chunks.has(index));
  if (missing.length) return { ok: false, problem: `no answer for chunk ${missing.join(', ')}` };
  return { ok: true, chunks };
}

function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?\s*```\s*$/i.exec(text);
  return fenced?.[1] ?? text;
}
