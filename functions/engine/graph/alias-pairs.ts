/**
 * A small hand-labelled set of name pairs for measuring entity-resolution thresholds: `same` says
 * whether the two forms denote one thing; `type` is the type extraction would give them (people,
 * organisations, places), since a lone surname may stand for a person only. Includes hard negatives
 * (same surname, sequels, look-alike countries, sibling phrases) so precision is not flattered, and
 * look-alikes the MuSiQue corpus produced (labelled by hand after a benchmark run). Used by
 * `calibrate.ts`, the graph benchmark and the unit tests.
 */
import type { MentionKind } from './entity-match';

export interface LabelledPair {
  readonly a: string;
  readonly b: string;
  readonly kind: Exclude<MentionKind, 'value'>;
  readonly same: boolean;
  readonly type?: string;
}

type Group = ReadonlyArray<readonly [string, string]>;

const pairs = (kind: LabelledPair['kind'], same: boolean, list: Group, type?: string): LabelledPair[] =>
  list.map(([a, b]) => ({ a, b, kind, same, ...(type === undefined ? {} : { type }) }));

const SAME_PEOPLE: Group = [
  ['Barack Obama', 'Obama'],
  ['Marie Curie', 'Curie'],
  ['Marie Curie', 'Marie Skłodowska Curie'],
  ['Tchaikovsky', 'Tschaikovsky'],
  ['Dostoyevsky', 'Dostoevsky'],
  ['Gorbachev', 'Gorbachov'],
  ['Shakespeare', 'Shakspeare'],
  ['Beyoncé Knowles', 'Beyonce Knowles'],
  ['Jean-Paul Sartre', 'Jean Paul Sartre'],
  ['Leo Tolstoy', 'Tolstoy'],
  ['Johann Sebastian Bach', 'Bach'],
  ['J. R. R. Tolkien', 'Tolkien'],
  ['George T. Solomon', 'George Solomon'],
  ['Muhammad Ali', 'Mohammad Ali'],
  ['Sigmund Freud', 'Freud'],
  ['Nikolai Gogol', 'Nikolay Gogol'],
  ['Jawaharlal Nehru', 'Nehru'],
  ['Ludwig van Beethoven', 'Beethoven'],
  ['Mao Zedong', 'Mao Tse-tung'],
];
const SAME_ORGANIZATIONS: Group = [
  ['International Business Machines', 'IBM'],
  ['World Health Organization', 'WHO'],
  ['United Nations', 'UN'],
  ['National Aeronautics and Space Administration', 'NASA'],
  ['Federal Bureau of Investigation', 'FBI'],
  ['British Broadcasting Corporation', 'BBC'],
  ['Massachusetts Institute of Technology', 'MIT'],
  ['The Beatles', 'Beatles'],
  ['Microsoft Corporation', 'Microsoft'],
  ['Harvard University', 'Harvard'],
  ["McDonald's", 'McDonalds'],
  ['Los Angeles Lakers', 'Lakers'],
  ['Wiley-Blackwell', 'Wiley Blackwell'],
  ['Procter & Gamble', 'Procter and Gamble'],
  ['Yale University', 'Yale'],
  ['European Union', 'EU'],
];
const SAME_PLACES: Group = [
  ['United States of America', 'USA'],
  ['U.S.', 'United States'],
  ['Saint Petersburg', 'St. Petersburg'],
];
const DIFFERENT_PEOPLE: Group = [
  ['Barack Obama', 'Michelle Obama'],
  ['Pierre Curie', 'Marie Curie'],
  ['John Smith', 'Joan Smith'],
  ['Michael Jackson', 'Janet Jackson'],
  ['Jackson', 'Johnson'],
  ['Bach', 'Carl Philipp Emanuel Bach'],
  ['Henry VIII', 'Henry VII'],
  ['Louis XIV', 'Louis XVI'],
  ['Charles Darwin', 'Charles Dickens'],
  ['Justin Timberlake', 'Justin Bieber'],
  ['Mark Twain', 'Shania Twain'],
  ['Franklin D. Roosevelt', 'Theodore Roosevelt'],
];
const DIFFERENT_NAMES: Group = [
  ['Paris', 'Paris Hilton'],
  ['North Korea', 'South Korea'],
  ['Korea', 'North Korea'],
  ['New York', 'York'],
  ['Apollo 11', 'Apollo 13'],
  ['World War I', 'World War II'],
  ['University of Copenhagen', 'Copenhagen'],
  ['Austria', 'Australia'],
  ['Columbia', 'Colombia'],
  ['IBM', 'International Monetary Fund'],
  ['WHO', 'World Trade Organization'],
  ['Microsoft', 'Microsoft Excel'],
  ['Harvard', 'Harvard Square'],
  ['Manchester United', 'Manchester City'],
  ['Real Madrid', 'Atletico Madrid'],
  ['George Washington', 'Washington'],
  ['Sweden', 'Swaziland'],
  ['Slovakia', 'Slovenia'],
  ['Iran', 'Iraq'],
  ['Star Wars', 'Star Trek'],
  ['Austin', 'Boston'],
  ['Nokia', 'Nikon'],
  ['Catalonia', 'Caledonia'],
  ['The Hollywood Reporter', 'Hollywood'],
  ['Ohio State University', 'Ohio'],
  ['Georgia', 'George'],
  ['Japan', 'Maiden Japan'],
  ['Irondequoit Bay', 'Irondequoit Bay Bridge'],
  ['Iron Fist', 'Fist'],
];

/** Look-alikes the MuSiQue corpus produced under looser rules (names as extracted; labelled by hand). */
const CORPUS_SAME_NAMES: Group = [
  ['Elisabeth', 'Elizabeth'],
  ['Gamal Abdel Nasser', 'Gamal Abdul Nasser'],
  ['Harbour', 'Harbor'],
  ['Members', 'Member'],
  ['U.S. Route', 'U.S. Routes'],
  ['Mississippi River', 'Mississippi Rivers'],
  ['Local Councils', 'Local Council'],
];
const CORPUS_DIFFERENT_NAMES: Group = [
  ['Communist', 'Communism'],
  ['Economic', 'Economy'],
  ['Product', 'Production'],
  ['Culture', 'Cultural'],
  ['Membership', 'Member'],
  ['National', 'Nations'],
  ['Clause', 'Clausentum'],
  ['Birth', 'Birthday'],
  ['Currency', 'Current'],
  ['Secretariat', 'Secretary'],
  ['Argentina', 'Argentine'],
  ['Confederate', 'Confederacy'],
  ['Yugoslavia', 'Yugoslav'],
  ['Turkey', 'Turkeyen'],
  ['Speakerbox', 'Speaker'],
  ['MetroJet', 'Metro'],
  ['Midwestern', 'Midwest'],
  ['Rakhine', 'Rakhi'],
  ['South America', 'South Africa'],
  ['Southeast Missouri', 'Southwest Missouri'],
  ['German', 'Germany'],
];
const CORPUS_SAME_PHRASES: Group = [
  ['nuclear weapons', 'atomic weapons'],
  ['railway system', 'rail system'],
  ['railroad lines', 'railway lines'],
  ['army service', 'military service'],
  ['weaker member countries', 'weak member countries'],
];
const CORPUS_DIFFERENT_PHRASES: Group = [
  ['comedy film', 'drama film'],
  ['football player', 'basketball player'],
  ['soccer player', 'basketball player'],
  ['compilation album', 'soundtrack album'],
  ['public debt', 'private debt'],
  ['breaststroke swimmer', 'freestyle swimmer'],
  ['bronze medal', 'silver medal'],
  ['television host', 'radio host'],
  ['highest point', 'lowest point'],
  ['documentary series', 'film series'],
  ['younger brother', 'older brother'],
  ['minimum temperature', 'maximum temperatures'],
  ['basketball team', 'soccer team'],
];

export const ALIAS_PAIRS: readonly LabelledPair[] = [
  ...pairs('name', true, CORPUS_SAME_NAMES),
  ...pairs('name', false, CORPUS_DIFFERENT_NAMES),
  ...pairs('phrase', true, CORPUS_SAME_PHRASES),
  ...pairs('phrase', false, CORPUS_DIFFERENT_PHRASES),
  ...pairs('name', true, SAME_PEOPLE, 'person'),
  ...pairs('name', true, SAME_ORGANIZATIONS, 'organization'),
  ...pairs('name', true, SAME_PLACES, 'place'),
  ...pairs('name', false, DIFFERENT_PEOPLE, 'person'),
  ...pairs('name', false, DIFFERENT_NAMES),
  ...pairs('phrase', true, [
    ['film director', 'movie director'],
    ['memory leaks', 'memory leak'],
    ['car accident', 'automobile accident'],
    ['television series', 'tv series'],
    ['football club', 'soccer club'],
    ['peer-reviewed journal', 'peer reviewed journal'],
    ['record label', 'recording label'],
    ['rock band', 'rock bands'],
    ['film adaptation', 'movie adaptation'],
    ['heart attack', 'heart attacks'],
    ['science fiction novel', 'sci-fi novel'],
    ['music festival', 'musical festival'],
    ['video game', 'videogame'],
    ['mobile phone', 'cell phone'],
    ['login page', 'sign-in page'],
  ]),
  ...pairs('phrase', false, [
    ['film director', 'film producer'],
    ['first world war', 'second world war'],
    ['heart attack', 'panic attack'],
    ['civil war', 'cold war'],
    ['red wine', 'white wine'],
    ['rock music', 'folk music'],
    ['summer olympics', 'winter olympics'],
    ['academic journal', 'medical journal'],
    ['lead singer', 'backing singer'],
    ['studio album', 'live album'],
    ['prime minister', 'foreign minister'],
    ['upper house', 'lower house'],
    ['high school', 'middle school'],
    ['login page', 'settings page'],
    ['memory leak', 'memory usage'],
    ['theoretical physics', 'theoretical physicist'],
    ['african slaves', 'african slave trade'],
    ['coldest temperature', 'coolest temperatures'],
  ]),
];
