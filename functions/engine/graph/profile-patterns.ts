/**
 * The patterns of profile-statements.ts: first-person wordings of a preference or a fact of a speaker's life,
 * the first that matches a sentence wins. Some name their value before the verb ("Lisbon has been home for
 * years", "Initech hired me", "sushi is not for me"); the value is the pattern's last group either way.
 */
import type { SpeakerStatement } from './graph-model';

/** One pattern: what a match of it says. `value` is the matched object, cut at the clause's end. */
export interface StatementPattern {
  readonly pattern: RegExp;
  readonly category: SpeakerStatement['category'];
  readonly kind: string;
  /** The slot of a single-valued statement (given the value), or none. */
  readonly slot?: (value: string) => string;
  /** A value that is a place or a name: cut before the first lowercase word. */
  readonly named?: boolean;
  /**
   * Words one of which every match contains (lowercase, as substrings of the lowercased sentence): a
   * sentence with none of them skips the pattern without running it (profile-statements.ts).
   */
  readonly needs: readonly string[];
}

const I = String.raw`(?:^|[^\w'])I`;
const IM = String.raw`(?:^|[^\w'])(?:I'm|I am)`;
const WE = String.raw`(?:^|[^\w'])(?:I|we)`;
const ADV = String.raw`(?:\s+(?:really|also|just|absolutely|still|actually|totally|now|finally|recently|truly|do))*`;
const V = String.raw`\s+(.+)`;
/** A name before the verb ("Lisbon has been home"): capitalised words, "of"/"de" between them. */
const NAME_FIRST = String.raw`(?:^|[^\w'])(\p{Lu}[\p{L}\d&.'-]*(?:\s+(?:of\s+|de\s+)?\p{Lu}[\p{L}\d&.'-]*)*)`;
/** A thing at the sentence's start ("sushi is not for me", "Board games aren't my thing"). */
const THING_FIRST = String.raw`^(?:honestly,?\s+|well,?\s+)?([\p{L}\d][\p{L}\d\s'-]*?)`;
const NOT_MINE = String.raw`(?:for me|my thing|my cup of tea)\b`;
const DIETS = String.raw`(vegetarian|vegan|pescatarian|teetotal|gluten[- ]free|lactose[- ]intolerant|on a [\w-]+ diet)\b`;
const TITLES = String.raw`(?:the\s+|a\s+|an\s+)?(CEO|CTO|CFO|COO|founder|co-?founder|owner|president|chair(?:man|woman|person)?|(?:managing\s+)?director|head|VP)`;

const opinion = (value: string): string => `opinion:${headKey(value, false)}`;

/** First match wins, so negative and specific patterns come before the general ones. */
export const PATTERNS: readonly StatementPattern[] = [
  {
    pattern: new RegExp(`${I}(?:'d|\\s+would)${ADV}\\s+(?:love|like)\\s+to${V}`, 'i'),
    category: 'preference',
    kind: 'wish',
    needs: ['love', 'like'],
  },
  {
    pattern: new RegExp(
      `${I}${ADV}\\s+(?:don't|do not|no longer|never|can't|cannot|won't)\\s+(?:like|love|enjoy|eat|drink|want|stand)(?:\\s+to)?${V}`,
      'i',
    ),
    category: 'preference',
    kind: 'dislike',
    needs: ['like', 'love', 'enjoy', 'eat', 'drink', 'want', 'stand'],
    slot: opinion,
  },
  {
    pattern: new RegExp(`${THING_FIRST}\\s+(?:is|are)(?:\\s+(?:just|really|simply))?\\s+not\\s+${NOT_MINE}`, 'iu'),
    category: 'preference',
    kind: 'dislike',
    needs: ['not'],
    slot: opinion,
  },
  {
    pattern: new RegExp(`${THING_FIRST}\\s+(?:isn't|aren't)(?:\\s+(?:just|really|simply))?\\s+${NOT_MINE}`, 'iu'),
    category: 'preference',
    kind: 'dislike',
    needs: ["n't"],
    slot: opinion,
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+(?:hate|dislike|detest|avoid|loathe)${V}`, 'i'),
    category: 'preference',
    kind: 'dislike',
    needs: ['hate', 'dislike', 'detest', 'avoid', 'loathe'],
    slot: opinion,
  },
  {
    pattern: new RegExp(`${IM}\\s+(?:not a (?:big )?fan of|not into|allergic to)${V}`, 'i'),
    category: 'preference',
    kind: 'dislike',
    needs: ['not', 'allergic'],
    slot: opinion,
  },
  {
    pattern: new RegExp(`${I}(?:'d|\\s+would)?${ADV}\\s+(?:prefer|favou?r)${V}`, 'i'),
    category: 'preference',
    kind: 'prefer',
    needs: ['prefer', 'favo'],
    slot: (value) => `prefer:${headKey(value, true)}`,
  },
  {
    pattern: /(?:^|[^\w'])(?:please\s+)?always\s+(?:book|reserve|get)\s+me\s+(?:an?\s+)?(.+)/i,
    category: 'preference',
    kind: 'prefer',
    needs: ['always'],
    slot: (value) => `prefer:${headKey(value, true)}`,
  },
  {
    pattern:
      /(?:^|[^\w'])(?:please\s+)?(?:book|reserve|get)\s+me\s+(?:an?\s+)?(.+?)\s+(?:from now on|going forward|in future|every time)\b/i,
    category: 'preference',
    kind: 'prefer',
    needs: ['now', 'forward', 'future', 'time'],
    slot: (value) => `prefer:${headKey(value, true)}`,
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+(?:like|love|enjoy|adore)${V}`, 'i'),
    category: 'preference',
    kind: 'like',
    needs: ['like', 'love', 'enjoy', 'adore'],
    slot: opinion,
  },
  {
    pattern: /(?:^|[^\w'])(?:I\s+)?(?:can't|cannot|can never)\s+get\s+enough\s+of\s+(.+)/i,
    category: 'preference',
    kind: 'like',
    needs: ['enough'],
    slot: opinion,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:a (?:big |huge )?fan of|into|obsessed with|passionate about)${V}`, 'i'),
    category: 'preference',
    kind: 'like',
    needs: ['fan', 'into', 'obsessed', 'passionate'],
    slot: opinion,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:a |an )?${DIETS}`, 'i'),
    category: 'preference',
    kind: 'diet',
    needs: ['vegetarian', 'vegan', 'pescatarian', 'teetotal', 'gluten', 'lactose', 'diet'],
    slot: () => 'diet',
  },
  {
    pattern: new RegExp(
      `${WE}${ADV}\\s+(?:went|became|turned|have gone|'ve gone|have been|'ve been|switched to being)\\s+(?:a |an )?${DIETS}`,
      'i',
    ),
    category: 'preference',
    kind: 'diet',
    needs: ['vegetarian', 'vegan', 'pescatarian', 'teetotal', 'gluten', 'lactose', 'diet'],
    slot: () => 'diet',
  },
  {
    pattern: new RegExp(`${I}\\s+(?:usually|always|often|normally|typically|regularly|never)${V}`, 'i'),
    category: 'preference',
    kind: 'habit',
    needs: ['usually', 'always', 'often', 'normally', 'typically', 'regularly', 'never'],
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+(?:want|wish|hope|dream of|long)\\s+(?:to\\s+)?(.+)`, 'i'),
    category: 'preference',
    kind: 'wish',
    needs: ['want', 'wish', 'hope', 'dream', 'long'],
  },
  {
    pattern: new RegExp(`${WE}${ADV}\\s+(?:live|am living|are living|'m living|'re living|reside)\\s+in${V}`, 'i'),
    category: 'fact',
    kind: 'residence',
    needs: ['liv', 'resid'],
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(`${WE}${ADV}\\s+(?:moved|relocated|have moved|'ve moved)\\s+(?:back\\s+)?to${V}`, 'i'),
    category: 'fact',
    kind: 'residence',
    needs: ['moved', 'relocated'],
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:based|living)\\s+in${V}`, 'i'),
    category: 'fact',
    kind: 'residence',
    needs: ['based', 'living'],
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(
      `${NAME_FIRST}\\s+(?:(?:has been|has always been|is|is now|'s been|became)\\s+(?:my|our)\\s+home\\b(?!\\s+to\\b)|(?:has been|has always been|'s been)\\s+home\\s+for\\s+(?:\\w+\\s+)?(?:years|decades|months|ages|a while|a long time))`,
      'u',
    ),
    category: 'fact',
    kind: 'residence',
    needs: ['home'],
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(
      `(?:^|[^\\w'])(?:(?:I|we)(?:'ve|\\s+have)?${ADV}\\s+|just\\s+)?settled\\s+(?:in|into)\\s+(?:(?:our|my|a|the)\\s+)?(?:new\\s+)?(?:flat|apartment|house|home|place)\\s+in${V}`,
      'i',
    ),
    category: 'fact',
    kind: 'residence',
    needs: ['settled'],
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(`${WE}${ADV}\\s+(?:call|now call)\\s+(.+?)\\s+home\\b`, 'i'),
    category: 'fact',
    kind: 'residence',
    needs: ['home'],
    slot: () => 'residence',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:moving|relocating|going to move)\\s+to${V}`, 'i'),
    category: 'fact',
    kind: 'plan',
    needs: ['moving', 'relocating', 'move'],
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+work\\s+as\\s+(?:a |an )?(.+)`, 'i'),
    category: 'fact',
    kind: 'occupation',
    needs: ['work'],
    slot: () => 'occupation',
  },
  {
    pattern: new RegExp(
      `${I}${ADV}\\s+(?:work|am working|'m working|started working|started a new job|started a job|got a (?:new )?job|took a (?:new )?job|joined|have joined|'ve joined)\\s+(?:at|for|with)?\\s*(.+)`,
      'i',
    ),
    category: 'fact',
    kind: 'work',
    needs: ['work', 'job', 'joined'],
    slot: () => 'employer',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}\\s+(?:now\\s+)?(?:a |an )([\\w-]+(?: [\\w-]+)?) (?:at|for) ([A-Z].+)`),
    category: 'fact',
    kind: 'work',
    needs: ["i'm", 'i am'],
    slot: () => 'employer',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}\\s+(?:now\\s+)?${TITLES}\\s+(?:of|at)\\s+(\\p{Lu}.+)`, 'u'),
    category: 'fact',
    kind: 'work',
    needs: ["i'm", 'i am'],
    slot: () => 'employer',
    named: true,
  },
  {
    pattern: /(?:^|[^\w'])my\s+(?:new\s+)?(?:employer|workplace)\s+is\s+(?:now\s+)?(.+)/i,
    category: 'fact',
    kind: 'work',
    needs: ['employer', 'workplace'],
    slot: () => 'employer',
    named: true,
  },
  {
    pattern: new RegExp(`${NAME_FIRST}\\s+(?:just\\s+|finally\\s+)?(?:hired me|has hired me|took me on|offered me a job)\\b`, 'u'),
    category: 'fact',
    kind: 'work',
    needs: ['hired', 'took', 'offered'],
    slot: () => 'employer',
    named: true,
  },
  {
    pattern: new RegExp(`${IM}${ADV}\\s+(?:married to|engaged to|dating|in a relationship with)${V}`, 'i'),
    category: 'fact',
    kind: 'partner',
    needs: ['married', 'engaged', 'dating', 'relationship'],
    slot: () => 'partner',
    named: true,
  },
  {
    pattern:
      /(?:^|[^\w'])my\s+(wife|husband|partner|girlfriend|boyfriend|fiancée?)(?:'s name)?\s+(?:is|was)\s+(?:called\s+|named\s+)?(.+)/i,
    category: 'fact',
    kind: 'partner',
    needs: ['wife', 'husband', 'partner', 'girlfriend', 'boyfriend', 'fianc'],
    slot: () => 'partner',
    named: true,
  },
  {
    pattern:
      /(?:^|[^\w'])my\s+((?:little |older |younger |big )?(?:son|daughter|mother|father|mom|mum|dad|brother|sister|kids?|children|grandma|grandmother|grandpa|grandfather|dog|cat))(?:'s name)?\s+(?:is|are)\s+(?:called\s+|named\s+)?(.+)/i,
    category: 'fact',
    kind: 'family',
    needs: ['son', 'daughter', 'mother', 'father', 'mom', 'mum', 'dad', 'brother', 'sister', 'kid', 'children', 'grand', 'dog', 'cat'],
    named: true,
  },
  {
    pattern: new RegExp(
      `${I}\\s+(?:have|'ve got|have got)\\s+((?:a|an|one|two|three|four|five|\\d+)\\s+(?:little\\s+)?(?:sons?|daughters?|kids?|children|brothers?|sisters?|dogs?|cats?|grandchildren)\\b.*)`,
      'i',
    ),
    category: 'fact',
    kind: 'family',
    needs: ['son', 'daughter', 'kid', 'children', 'brother', 'sister', 'dog', 'cat', 'grandchildren'],
  },
  {
    pattern: new RegExp(`${IM}\\s+(?:going|planning|about|hoping)\\s+to${V}`, 'i'),
    category: 'fact',
    kind: 'plan',
    needs: ['going', 'planning', 'about', 'hoping'],
  },
  {
    pattern: new RegExp(`${I}${ADV}\\s+(?:plan|intend|am planning|'m planning)\\s+to${V}`, 'i'),
    category: 'fact',
    kind: 'plan',
    needs: ['plan', 'intend'],
  },
];

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
