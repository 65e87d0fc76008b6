/**
 * Entity type schemas for the three graph ontologies (`culture`, `essays`, `support_requests`), as
 * data. Each schema lists its types and the typing rules `typing.ts` applies, in this order:
 * surface patterns → wink value labels → title/role word before a name → head word of a name → cue
 * word before a mention → word-vector prototypes → a preposition of place before a name → defaults.
 * Common-noun phrases are typed by their head lemma (`phraseHeads`) or `defaultPhrase`.
 *
 * To extend: add a type to `types`, then map words to it in the lexicons below (shared ones are
 * built by `sharedRules`). To add an ontology: add its name to `ONTOLOGIES` and a schema to `SCHEMAS`.
 */
import * as lexicon from './ontology-words';

const ONTOLOGIES = ['culture', 'essays', 'support_requests'] as const;
export type OntologyName = (typeof ONTOLOGIES)[number];

/** A lookup from lowercase words to a type name. */
type WordTypes = Readonly<Record<string, string>>;

/** A pattern found in raw text before parsing (codes, versions); its matches become mentions. */
export interface TextPattern {
  /** Global regular expression. */
  readonly pattern: RegExp;
  readonly type: string;
  /** Key of a match when it differs from the normalised surface ("version 4.2" → "4.2"). */
  readonly canonical?: (surface: string) => string;
}

/** The rules that give a mention a type; see the module comment for their order. */
interface TypingRules {
  /** Matched in the raw text first; a match is a mention of that type. */
  readonly textPatterns: readonly TextPattern[];
  /** Checked first, on the mention's surface. */
  readonly surfacePatterns: ReadonlyArray<{ readonly pattern: RegExp; readonly type: string }>;
  /** wink value label (DATE, MONEY…) → type; labels not listed are not entities. */
  readonly valueLabels: WordTypes;
  /** Title or role word just before (or opening) a name: "President", "Dr", "singer". */
  readonly titles: WordTypes;
  /** Last word of a name: "University" → organization, "River" → place. */
  readonly nameHeads: WordTypes;
  /** Common noun just before a name: "the album Thriller", "customer Acme". */
  readonly cueWords: WordTypes;
  /** Seed words per type for word-vector typing of names that no rule typed. */
  readonly prototypes: Readonly<Record<string, readonly string[]>>;
  /** Type of a name after "in", "at", "near", "from" when nothing else typed it. */
  readonly placeAfterPreposition: string | undefined;
  /** Head lemma of a common-noun phrase → type. */
  readonly phraseHeads: WordTypes;
  /** Names in quotation marks. */
  readonly quotedName: string | undefined;
  readonly defaultName: string;
  readonly defaultPhrase: string;
}

/** A fact kind: facts whose predicate verb lemma is listed get that kind (e.g. claims in essays). */
interface FactKindRule {
  readonly kind: string;
  readonly verbs: readonly string[];
}

/**
 * A relation that holds one value at a time (lives in, works at, CEO of): a later statement with another
 * value supersedes the earlier one (validity.ts). A relation is this slot when one of its predicate's
 * words is one of `verbs` (any inflection: "lives", "lived", "moved") and every word of `words` is in the
 * predicate too, or when its object has one of `objectTypes` and a verb matches. `by: 'object'` holds one
 * subject per object ("Bob is CEO of Acme" replaces "Alice is CEO of Acme"); the default one object per subject.
 */
export interface SingleValuedRelation {
  readonly slot: string;
  readonly verbs: readonly string[];
  readonly words?: readonly string[];
  readonly objectTypes?: readonly string[];
  readonly by?: 'subject' | 'object';
}

export interface OntologySchema {
  readonly name: OntologyName;
  /** Type name → one-line description. */
  readonly types: Readonly<Record<string, string>>;
  readonly rules: TypingRules;
  readonly factKinds: readonly FactKindRule[];
  /** Relations holding one value at a time; any other relation is multi-valued (likes tea and coffee). */
  readonly singleValued?: readonly SingleValuedRelation[];
}

const DATE_LABELS = { DATE: 'date' } as const;

/** Single-valued relations every built-in ontology knows. */
const SHARED_SINGLE_VALUED: readonly SingleValuedRelation[] = [
  { slot: 'lives in', verbs: ['live', 'reside', 'move', 'relocate', 'settle'], words: ['in'] },
  { slot: 'lives in', verbs: ['move', 'relocate'], words: ['to'] },
  { slot: 'works at', verbs: ['work'], words: ['at'] },
  { slot: 'works at', verbs: ['work'], words: ['for'] },
  { slot: 'works at', verbs: ['join'] },
  { slot: 'married to', verbs: ['marry', 'wed'] },
  { slot: 'ceo of', verbs: ['be', 'become', 'remain', 'serve', 'name', 'appoint'], words: ['ceo'], by: 'object' },
  { slot: 'president of', verbs: ['be', 'become', 'remain', 'serve', 'elect'], words: ['president', 'of'], by: 'object' },
  { slot: 'costs', verbs: ['cost'] },
  { slot: 'headquartered in', verbs: ['headquarter', 'base'], words: ['in'] },
];

/** Rules shared by the ontologies; `person` renames the person type (author, customer). */
function sharedRules(person: string, defaults: { name: string; phrase: string }): TypingRules {
  return {
    textPatterns: [],
    surfacePatterns: [],
    valueLabels: DATE_LABELS,
    titles: { ...lexicon.words(lexicon.PERSON_TITLES, person), ...lexicon.words(lexicon.PERSON_ROLES, person) },
    nameHeads: {
      ...lexicon.words(lexicon.ORG_HEADS, 'organization'),
      ...lexicon.words(lexicon.PLACE_HEADS, 'place'),
      ...lexicon.words(lexicon.EVENT_HEADS, 'event'),
      ...lexicon.words(lexicon.WORK_HEADS, 'work'),
    },
    cueWords: lexicon.words(lexicon.WORK_CUES, 'work'),
    prototypes: {
      person: lexicon.exemplars('person'),
      place: lexicon.exemplars('place'),
      organization: lexicon.exemplars('organization'),
      work: lexicon.exemplars('work'),
    },
    placeAfterPreposition: 'place',
    phraseHeads: {},
    quotedName: 'work',
    defaultName: defaults.name,
    defaultPhrase: defaults.phrase,
  };
}

const CULTURE: OntologySchema = {
  name: 'culture',
  types: {
    person: 'A person: artist, ruler, figure',
    place: 'A place: city, country, river, building',
    organization: 'A group or institution',
    work: 'A creative work: book, film, album, song, painting',
    event: 'A dated happening: war, festival, election',
    tradition: 'A custom, religion, genre or practice',
    award: 'A prize, award or honour',
    date: 'A date or period',
    entity: 'A named thing of no known type',
    concept: 'A salient noun phrase',
  },
  rules: (() => {
    const base = sharedRules('person', { name: 'entity', phrase: 'concept' });
    return {
      ...base,
      surfacePatterns: [{ pattern: /^\p{Lu}\p{L}+(?:ism|ity)$/u, type: 'tradition' }],
      nameHeads: {
        ...base.nameHeads,
        ...lexicon.words('tradition dance cuisine mythology folklore rite', 'tradition'),
        ...lexicon.words('prize award awards medal trophy honour honor', 'award'),
      },
      phraseHeads: lexicon.words(
        'tradition custom ritual rite ceremony religion dance cuisine folklore mythology genre festival faith',
        'tradition',
      ),
    };
  })(),
  factKinds: [],
  singleValued: SHARED_SINGLE_VALUED,
};

const ESSAYS: OntologySchema = {
  name: 'essays',
  types: {
    author: 'A person who writes or is discussed',
    concept: 'An idea or salient noun phrase',
    work: 'A book, essay, paper or article',
    organization: 'A group or institution',
    place: 'A place',
    event: 'A dated happening',
    date: 'A date or period',
    entity: 'A named thing of no known type',
  },
  rules: sharedRules('author', { name: 'entity', phrase: 'concept' }),
  factKinds: [
    {
      kind: 'claim',
      verbs: [
        'argue',
        'claim',
        'contend',
        'suggest',
        'believe',
        'hold',
        'assert',
        'propose',
        'maintain',
        'insist',
        'conclude',
        'show',
        'think',
        'say',
        'write',
      ],
    },
  ],
  singleValued: SHARED_SINGLE_VALUED,
};

const versionNumber = (surface: string): string => surface.replace(/^\D+/, '').toLowerCase();

const SUPPORT_PATTERNS: readonly TextPattern[] = [
  { pattern: /\b(?:version|release|build|v)\s?\d+(?:\.\d+){0,3}\b/gi, type: 'version', canonical: versionNumber },
  { pattern: /(?<![\w.])\d+(?:\.\d+){1,3}(?![\w.]*\w)/g, type: 'version', canonical: versionNumber },
  { pattern: /\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z]*(?:Error|Exception)|0x[0-9A-Fa-f]{4,8}|[A-Z]{1,4}-?\d{2,5})\b/g, type: 'error' },
  { pattern: /\b(?:HTTP|status|error)\s(?:code\s)?[45]\d\d\b/gi, type: 'error', canonical: (surface) => surface.replace(/\D+/g, '') },
];

const SUPPORT: OntologySchema = {
  name: 'support_requests',
  types: {
    product: 'A product, app or service',
    feature: 'A feature or component of a product',
    error: 'An error, error code or symptom',
    version: 'A version or release',
    customer: 'A customer: person or company asking for help',
    resolution: 'A fix, workaround or answer',
    organization: 'A vendor or other institution',
    date: 'A date',
    concept: 'Another salient noun phrase',
  },
  rules: (() => {
    const base = sharedRules('customer', { name: 'product', phrase: 'concept' });
    return {
      ...base,
      textPatterns: SUPPORT_PATTERNS,
      valueLabels: { DATE: 'date' },
      nameHeads: { ...base.nameHeads, ...lexicon.words('inc ltd llc corp gmbh', 'customer') },
      cueWords: {
        ...lexicon.words('customer client user account tenant', 'customer'),
        ...lexicon.words('version release build', 'version'),
        ...lexicon.words('error code exception', 'error'),
      },
      placeAfterPreposition: undefined,
      quotedName: 'feature',
      phraseHeads: {
        ...lexicon.words('error failure crash exception timeout bug issue outage problem leak warning', 'error'),
        ...lexicon.words(
          'fix workaround patch hotfix solution resolution update upgrade restart reinstall rollback downgrade',
          'resolution',
        ),
        ...lexicon.words(
          'feature button page dashboard setting settings export import sync login api integration notification report search upload download editor plugin extension option menu tab widget service module',
          'feature',
        ),
        ...lexicon.words('version release build', 'version'),
        ...lexicon.words('customer client user subscriber tenant', 'customer'),
      },
    };
  })(),
  factKinds: [{ kind: 'resolution', verbs: ['fix', 'resolve', 'solve', 'work', 'restore', 'patch'] }],
  singleValued: [
    ...SHARED_SINGLE_VALUED,
    { slot: 'version of', verbs: ['run', 'use', 'be', 'upgrade', 'update', 'install', 'move', 'downgrade'], objectTypes: ['version'] },
    { slot: 'version of', verbs: ['be'], words: ['version', 'of'] },
  ],
};

const SCHEMAS: Readonly<Record<OntologyName, OntologySchema>> = {
  culture: CULTURE,
  essays: ESSAYS,
  support_requests: SUPPORT,
};

/** The schema of an ontology. */
export function ontologySchema(name: OntologyName): OntologySchema {
  return SCHEMAS[name];
}

/** Whether `value` names an ontology. */
export function isOntologyName(value: string): value is OntologyName {
  return (ONTOLOGIES as readonly string[]).includes(value);
}

/** Types that only say "no rule matched"; they give way to any specific type when nodes merge. */
export function isGenericType(schema: OntologySchema, type: string): boolean {
  return type === schema.rules.defaultName || type === schema.rules.defaultPhrase;
}

/**
 * Words that may follow an organisation's short name in its full name ("Harvard University",
 * "Microsoft Corporation", "Acme Inc"); not "League" or "Records" ("Lancashire" is not "Lancashire
 * League"). The same for every ontology.
 */
export function organizationHeads(_schema?: OntologySchema): Set<string> {
  return new Set(ORGANIZATION_SUFFIXES.split(' '));
}

const ORGANIZATION_SUFFIXES =
  'university college corporation corp incorporated inc company co ltd limited llc plc gmbh ag sa group holdings';

/** The types of people in this ontology (person, author, customer). */
export function personTypes(schema: OntologySchema): Set<string> {
  return new Set([schema.rules.titles.president ?? 'person']);
}
