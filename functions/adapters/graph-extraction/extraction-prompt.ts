/**
 * The instructions and the request text for model extraction. The system text lists the ontology's
 * types and fact kinds; the user text numbers the chunks of one batch. Entities and sentences must be
 * copied from the text, because they are located there (`ground-chunk.ts`): what is not found is dropped.
 */
import type { OntologySchema } from '../../engine/graph';

/** A chunk as sent: its number within the file and its text. */
export interface PromptChunk {
  readonly index: number;
  readonly text: string;
}

export function systemPrompt(schema: OntologySchema, factExtraction: boolean): string {
  const types = Object.entries(schema.types).map(([name, description]) => `- ${name}: ${description}`);
  const kinds = schema.factKinds.map((rule) => `- ${rule.kind}: statements such as "${rule.verbs.slice(0, 4).join('", "')}"`);
  return [
    'You extract a knowledge graph from text chunks. For every chunk, list:',
    '1. entities: the named things (people, organisations, places, works, products, dates…) and the salient',
    "   noun phrases (concepts) it mentions. Copy each entity's `text` exactly as written in that chunk; list each",
    '   distinct entity once, by its fullest form in the chunk. Give it one of these types:',
    ...types,
    '2. relations: what the chunk states about two of its entities, as subject, predicate (a short lowercase verb',
    '   phrase), object. Subject and object must be the `text` of entities you listed for the same chunk.',
    '   `sentence` is the sentence that states it, copied verbatim from the chunk.',
    factExtraction
      ? `   \`kind\` is "fact" unless a kind below fits better:\n${kinds.length ? kinds.join('\n') : '   (no other kinds)'}`
      : '   `kind` is "fact".',
    'Use only what the text says; do not add outside knowledge. Skip pronouns. Answer for every chunk number',
    'you are given, with an empty list when a chunk has nothing. Answer with JSON only, matching the schema.',
  ].join('\n');
}

export function extractionUserPrompt(chunks: readonly PromptChunk[]): string {
  return chunks.map((chunk) => `Chunk ${chunk.index}:\n<<<\n${chunk.text}\n>>>`).join('\n\n');
}
