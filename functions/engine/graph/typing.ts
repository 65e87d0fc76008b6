/**
 * Gives a mention a type from its ontology's rules (see `ontology.ts` for their order). Word-vector
 * typing is optional: pass a `VectorTyper` (from `word-vector-typing.ts`) to type names no rule covers.
 */
import type { OntologySchema } from './ontology';

/** What the extractor knows about a mention when typing it. */
export interface TypingCue {
  readonly kind: 'name' | 'phrase' | 'value';
  /** The mention as written. */
  readonly surface: string;
  /** Its lowercase words. */
  readonly words: readonly string[];
  /** Lemma of the last word (phrases). */
  readonly headLemma: string;
  /** wink value label, for values. */
  readonly valueLabel?: string;
  /** Lowercase words before the mention, nearest first (up to two). */
  readonly before: readonly string[];
  /** A title word that opened the name and was cut from it ("president"). */
  readonly title?: string;
  /** The name stood in quotation marks. */
  readonly quoted?: boolean;
}

/** Picks a type for a name from word vectors, or undefined when unsure. */
export type VectorTyper = (words: readonly string[], prototypes: Readonly<Record<string, readonly string[]>>) => string | undefined;

const PLACE_PREPOSITIONS = new Set(['in', 'at', 'near', 'from']);
/** The head of "University of X", "Prize in X", "Award for X" is the word before these. */
const HEAD_JOINERS = new Set(['of', 'in', 'for']);

/** The mention's type, or undefined when it is not an entity (a value label the schema ignores). */
export function typeMention(schema: OntologySchema, cue: TypingCue, vectorTyper?: VectorTyper): string | undefined {
  const { rules } = schema;
  for (const { pattern, type } of rules.surfacePatterns) if (pattern.test(cue.surface)) return type;
  if (cue.kind === 'value') return cue.valueLabel === undefined ? undefined : rules.valueLabels[cue.valueLabel];
  if (cue.kind === 'phrase') return rules.phraseHeads[cue.headLemma] ?? rules.defaultPhrase;
  return typeName(schema, cue, vectorTyper);
}

function typeName(schema: OntologySchema, cue: TypingCue, vectorTyper?: VectorTyper): string {
  const { rules } = schema;
  const byRule = typeByRule(rules, cue);
  if (byRule !== undefined && byRule in schema.types) return byRule;
  const byVector = vectorTyper?.(cue.words, rules.prototypes);
  const renamed = byVector === undefined ? undefined : renamePerson(schema, byVector);
  if (renamed !== undefined && renamed in schema.types) return renamed;
  const [previous = ''] = cue.before;
  if (rules.placeAfterPreposition !== undefined && PLACE_PREPOSITIONS.has(previous)) return rules.placeAfterPreposition;
  return rules.defaultName;
}

/**
 * The type the ontology's rules give a name, first found: its title, the title before it, the head before
 * "of", its last or (several words) first word as a head, the cue word before it (or before "the"), a quoted name.
 */
function typeByRule(rules: OntologySchema['rules'], cue: TypingCue): string | undefined {
  const [previous = '', beforePrevious = ''] = cue.before;
  const last = cue.words[cue.words.length - 1] ?? '';
  const ofAt = cue.words.findIndex((word, index) => index > 0 && HEAD_JOINERS.has(word));
  const headBeforeOf = ofAt > 0 ? rules.nameHeads[cue.words[ofAt - 1] ?? ''] : undefined;
  return (
    (cue.title === undefined ? undefined : (rules.titles[cue.title] ?? rules.cueWords[cue.title])) ??
    rules.titles[previous] ??
    headBeforeOf ??
    rules.nameHeads[last] ??
    (cue.words.length > 1 ? rules.nameHeads[cue.words[0] ?? ''] : undefined) ??
    rules.cueWords[previous] ??
    (previous === 'the' ? rules.cueWords[beforePrevious] : undefined) ??
    (cue.quoted ? rules.quotedName : undefined)
  );
}

/** Prototype typing says "person"; ontologies may call people authors or customers. */
function renamePerson(schema: OntologySchema, type: string): string {
  if (type !== 'person' || 'person' in schema.types) return type;
  return schema.rules.titles.president ?? type;
}
