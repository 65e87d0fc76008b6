/**
 * What a customer user says of themself, found in their messages with no model: first-person sentences
 * matched against a few patterns, each giving a preference (likes, dislikes, preferences, habits, wishes,
 * diet) or a fact of their life (where they live, where and as what they work, family, plans).
 *
 * Single-valued statements carry a slot, and a later statement of the same slot with another value
 * supersedes the earlier (validity.ts): residence, employer, occupation, partner, diet; "I prefer X" per
 * kind of thing ("window seats" → "aisle seats": the slot is the head word, "seats"); liking or disliking
 * one thing ("I love coffee" → "I don't drink coffee anymore"). Everything else is multi-valued: liking
 * tea does not end liking coffee.
 */
import { stableId, type SpeakerStatement } from './graph-model';
import { PATTERNS, type StatementPattern } from './profile-patterns';

interface StatementSource {
  speaker: string;
  chunkId: string;
  sourceId: string;
  time: string;
}

/** Words that end a value: the clause goes on about something else. */
const VALUE_END =
  /\s+(?:because|since|but|so|although|though|when|while|which|where|who|and then|last|this|next|ago|yesterday|today|now|anymore|any more|these days|nowadays|recently|lately|instead|again|too|as well)\b.*$/i;
const PRONOUN_VALUES = new Set([
  'you',
  'it',
  'that',
  'this',
  'them',
  'him',
  'her',
  'so',
  'too',
  'to',
  'the',
  'a',
  'there',
  'here',
  'me',
  'one',
  'he',
  'she',
  'they',
  'we',
  'i',
  'us',
]);
const MAX_VALUE_WORDS = 8;
/** Per pattern, whether a lowercased sentence holds one of the words it needs. */
const GATES = PATTERNS.map((rule) => new RegExp(rule.needs.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')));

/**
 * The statements of one message of `source.speaker` (a sentence gives at most one, "and" lists one per item).
 * A pattern runs only on a sentence holding one of the words it needs (most sentences hold none of most).
 */
export function speakerStatements(text: string, source: StatementSource): SpeakerStatement[] {
  const statements: SpeakerStatement[] = [];
  sentencesOf(text).forEach((sentence, index) => statements.push(...sentenceStatements(sentence, index, source)));
  return statements;
}

/** The first pattern's statements that a sentence gives any. */
function sentenceStatements(sentence: string, index: number, source: StatementSource): SpeakerStatement[] {
  const lower = sentence.toLowerCase();
  for (let at = 0; at < PATTERNS.length; at++) {
    const rule = PATTERNS[at] as StatementPattern;
    if (!GATES[at]?.test(lower)) continue;
    const match = rule.pattern.exec(sentence);
    const found = match ? statementsOf(match, rule, { ...source, sentence, index }) : [];
    if (found.length > 0) return found;
  }
  return [];
}

/** What one pattern's match says (none when its value is no value: a pronoun, a lowercase "name"). */
function statementsOf(
  match: RegExpExecArray,
  rule: StatementPattern,
  at: StatementSource & { sentence: string; index: number },
): SpeakerStatement[] {
  const raw = match[match.length - 1] ?? '';
  const role = match.length > 2 ? (match[1] ?? '') : '';
  return valuesOf(raw, rule).map((value) => {
    const shown = role && rule.kind !== 'work' ? `${role.toLowerCase()}: ${value}` : value;
    const slot = rule.slot?.(value);
    return {
      id: stableId('s', `${at.chunkId}\u0000${at.index}\u0000${rule.kind}\u0000${shown}`),
      speaker: at.speaker,
      category: rule.category,
      kind: rule.kind,
      ...(slot === undefined ? {} : { slot }),
      value: rule.kind === 'dislike' || rule.kind === 'like' ? `${rule.kind} ${shown}` : shown,
      text: at.sentence,
      chunkId: at.chunkId,
      sourceId: at.sourceId,
      validFrom: at.time,
      validTo: null,
    };
  });
}

function sentencesOf(text: string): string[] {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .split(/(?<=[.!?])\s+|\n+|\s*[,;]?\s+(?:and|but|so)\s+(?=(?:I|we|my)\b)/i)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0 && sentence.length <= 400 && !sentence.endsWith('?'));
}

/** The value(s) of a match: cut at the clause's end, split on "and" / "," for lists of likes. */
function valuesOf(raw: string, rule: StatementPattern): string[] {
  let value = raw.split(/[.!?;:,()"]|\s[-–—]\s/)[0] ?? '';
  value = value.replace(VALUE_END, '').trim();
  if (rule.kind === 'prefer') value = value.split(/\s+(?:over|to|than|rather than|instead of)\s+/i)[0] ?? '';
  if (rule.named) value = namedPart(value);
  const list = rule.slot && rule.kind !== 'prefer' && !rule.named ? value.split(/\s+(?:and|or|&)\s+/) : [value];
  return list
    .map((item) => item.replace(/^(?:the|a|an|my|to|with|at|for|in)\s+/i, '').trim())
    .filter((item) => item.length > 0 && !PRONOUN_VALUES.has(item.toLowerCase()) && item.split(/\s+/).length <= MAX_VALUE_WORDS);
}

/** A place or name: the capitalised words from the start ("Berlin last week" → "Berlin"); none: not a name. */
function namedPart(value: string): string {
  const words = value.replace(/^(?:the|a|an)\s+/i, '').split(/\s+/);
  const named: string[] = [];
  for (const word of words) {
    if (/^[\p{Lu}\d]/u.test(word) || (named.length > 0 && /^(?:of|de|du|la|von|van|&)$/.test(word))) named.push(word);
    else break;
  }
  while (named.length > 0 && /^(?:of|de|du|la|von|van|&)$/.test(named[named.length - 1] ?? '')) named.pop();
  return named.join(' ');
}
