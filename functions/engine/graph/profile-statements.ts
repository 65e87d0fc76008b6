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

interface StatementSource {
  speaker: string;
  chunkId: string;
  sourceId: string;
  time: string;
}

/** One pattern: what a match of it says. `value` is the matched object, cut at the clause's end. */
interface StatementPattern {
  readonly pattern: RegExp;
  readonly category: SpeakerStatement['category'];
  readonly kind: string;
  /** The slot of a single-valued statement (given the value), or none. */
  readonly slot?: (value: string) => string;
  /** A value that is a place or a name: cut before the first lowercase word. */
  readonly named?: boolean;
}

const I = String.raw`(?:^|[^\w'])I`;
const IM = String.raw`(?:^|[^\w'])(?:I'm|I am)`;
const WE = String.raw`(?:^|[^\w'])(?:I|we)`;
const ADV = String.raw`(?:\s+(?:really|also|just|absolutely|still|actually|totally|now|finally|recently|truly|do))*`;
const V = String.raw`\s+(.+)`;

const opinion = (value: string): string => `opinion:${headKey(value, false)}`;

/** First match wins, so negative and specific patterns come before the general ones. */
const PATTERNS: readonly StatementPattern[] = [
  { pattern: new RegExp(`${I}(?:'d|\\s+would)${ADV}\\s+(?:love|like)\\s+to${V}`, 'i'), category: 'preference', kind: 'wish' },
  {
    pattern: new RegExp(
      `${I}${ADV}\\s+(?:don't|do not|no longer|never|can't|cannot|won't)\\s+(?:like|love|enjoy|eat|drink|want|stand)(?:\\s+to)?${V}`,
      'i',
    ),
    category: 'preference',
    kind: 'dislike',
    slot: opinion,
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+(?:hate|dislike|detest|avoid|loathe)${V}`, 'i'),
    category: 'preference',
    kind: 'dislike',
    slot: opinion,
  },
  {
    pattern: new RegExp(`${IM}\\s+(?:not a (?:big )?fan of|not into|allergic to)${V}`, 'i'),
    category: 'preference',
    kind: 'dislike',
    slot: opinion,
  },
  {
    pattern: new RegExp(`${I}(?:'d|\\s+would)?${ADV}\\s+(?:prefer|favou?r)${V}`, 'i'),
    category: 'preference',
    kind: 'prefer',
    slot: (value) => `prefer:${headKey(value, true)}`,
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+(?:like|love|enjoy|adore)${V}`, 'i'),
    category: 'preference',
    kind: 'like',
    slot: opinion,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:a (?:big |huge )?fan of|into|obsessed with|passionate about)${V}`, 'i'),
    category: 'preference',
    kind: 'like',
    slot: opinion,
  },
  {
    pattern: new RegExp(
      `${IM}${ADV}\\s+(?:a |an )?(vegetarian|vegan|pescatarian|teetotal|gluten[- ]free|lactose[- ]intolerant|on a [\\w-]+ diet)\\b`,
      'i',
    ),
    category: 'preference',
    kind: 'diet',
    slot: () => 'diet',
  },
  {
    pattern: new RegExp(`${I}\\s+(?:usually|always|often|normally|typically|regularly|never)${V}`, 'i'),
    category: 'preference',
    kind: 'habit',
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+(?:want|wish|hope|dream of|long)\\s+(?:to\\s+)?(.+)`, 'i'),
    category: 'preference',
    kind: 'wish',
  },
  {
    pattern: new RegExp(`${WE}${ADV}\\s+(?:live|am living|are living|'m living|'re living|reside)\\s+in${V}`, 'i'),
    category: 'fact',
    kind: 'residence',
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(`${WE}${ADV}\\s+(?:moved|relocated|have moved|'ve moved)\\s+(?:back\\s+)?to${V}`, 'i'),
    category: 'fact',
    kind: 'residence',
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:based|living)\\s+in${V}`, 'i'),
    category: 'fact',
    kind: 'residence',
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:moving|relocating|going to move)\\s+to${V}`, 'i'),
    category: 'fact',
    kind: 'plan',
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+work\\s+as\\s+(?:a |an )?(.+)`, 'i'),
    category: 'fact',
    kind: 'occupation',
    slot: () => 'occupation',
  },
  {
    pattern: new RegExp(
      `${I}${ADV}\\s+(?:work|am working|'m working|started working|started a new job|started a job|got a (?:new )?job|took a (?:new )?job|joined|have joined|'ve joined)\\s+(?:at|for|with)?\\s*(.+)`,
      'i',
    ),
    category: 'fact',
    kind: 'work',
    slot: () => 'employer',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}\\s+(?:now\\s+)?(?:a |an )([\\w-]+(?: [\\w-]+)?) (?:at|for) ([A-Z].+)`),
    category: 'fact',
    kind: 'work',
    slot: () => 'employer',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:married to|engaged to|dating|in a relationship with)${V}`, 'i'),
    category: 'fact',
    kind: 'partner',
    slot: () => 'partner',
    named: true,
  },
  {
    pattern:
      /(?:^|[^\w'])my\s+(wife|husband|partner|girlfriend|boyfriend|fiancée?)(?:'s name)?\s+(?:is|was)\s+(?:called\s+|named\s+)?(.+)/i,
    category: 'fact',
    kind: 'partner',
    slot: () => 'partner',
    named: true,
  },
  {
    pattern:
      /(?:^|[^\w'])my\s+((?:little |older |younger |big )?(?:son|daughter|mother|father|mom|mum|dad|brother|sister|kids?|children|grandma|grandmother|grandpa|grandfather|dog|cat))(?:'s name)?\s+(?:is|are)\s+(?:called\s+|named\s+)?(.+)/i,
    category: 'fact',
    kind: 'family',
    named: true,
  },
  {
    pattern: new RegExp(
      `${I}\\s+(?:have|'ve got|have got)\\s+((?:a|an|one|two|three|four|five|\\d+)\\s+(?:little\\s+)?(?:sons?|daughters?|kids?|children|brothers?|sisters?|dogs?|cats?|grandchildren)\\b.*)`,
      'i',
    ),
    category: 'fact',
    kind: 'family',
  },
  {
    pattern: new RegExp(`${IM}\\s+(?:going|planning|about|hoping)\\s+to${V}`, 'i'),
    category: 'fact',
    kind: 'plan',
  },
  { pattern: new RegExp(`${I}${ADV}\\s+(?:plan|intend|am planning|'m planning)\\s+to${V}`, 'i'), category: 'fact', kind: 'plan' },
];

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
]);
const MAX_VALUE_WORDS = 8;

/** The statements of one message of `source.speaker` (a sentence gives at most one, "and" lists one per item). */
export function speakerStatements(text: string, source: StatementSource): SpeakerStatement[] {
  return sentencesOf(text).flatMap((sentence, index) => {
    for (const rule of PATTERNS) {
      const match = rule.pattern.exec(sentence);
      const found = match ? statementsOf(match, rule, { ...source, sentence, index }) : [];
      if (found.length > 0) return found;
    }
    return [];
  });
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

/** The key a preference is about: its head word ("window seats" → "seat") or the whole value, lowercase. */
function headKey(value: string, head: boolean): string {
  const words = value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .split(/\s+/)
    .filter(Boolean);
  const key = head ? (words.at(-1) ?? '') : words.join(' ');
  return key.replace(/(?<=\w\w)s$/, '');
}
