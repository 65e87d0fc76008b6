/**
 * Word lists the sentence splitter uses to decide whether a full stop ends a sentence. All entries are
 * lowercase and written without their final full stop ("e.g" for "e.g.").
 */

/** Abbreviations after which a full stop never ends a sentence (titles, "e.g.", "Fig.", months). */
export const NEVER_FINAL_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mr', 'mrs', 'ms', 'mx', 'dr', 'prof', 'st', 'mt', 'rev', 'hon', 'gen', 'col', 'lt', 'sgt', 'capt',
  'cmdr', 'gov', 'sen', 'rep', 'pres', 'supt', 'fr', 'messrs', 'mme', 'mlle',
  'e.g', 'eg', 'i.e', 'ie', 'cf', 'vs', 'viz', 'approx', 'ca', 'circa', 'esp', 'incl', 'resp',
  'fig', 'figs', 'eq', 'eqs', 'ref', 'refs', 'tab', 'dept', 'univ', 'assoc', 'ave', 'blvd', 'rd',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

/** Abbreviations that are followed by a number when they do not end a sentence ("No. 5", "p. 12"). */
export const NUMBER_PREFIX_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'no', 'nos', 'nr', 'p', 'pp', 'vol', 'vols', 'sec', 'ch', 'chap', 'art', 'para', 'ed', 'eds', 'ser',
]);

/**
 * Abbreviations that may or may not end a sentence ("etc.", "et al.", "Inc.", "a.m."). After one of
 * these, as after an initial ("J.") or a dotted acronym ("U.S."), the splitter cuts only when the next
 * word is a common sentence opener (`SENTENCE_OPENERS`).
 */
export const AMBIGUOUS_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'etc', 'al', 'inc', 'ltd', 'co', 'corp', 'llc', 'plc', 'bros', 'jr', 'sr', 'jnr', 'snr', 'esq',
  'a.m', 'p.m', 'am', 'pm', 'min', 'hr', 'hrs', 'avg', 'est', 'ph.d', 'm.d', 'b.a', 'b.sc', 'm.sc',
  'u.s', 'u.k', 'u.n', 'e.u',
]);

/** Words that commonly open an English sentence, lowercased. */
export const SENTENCE_OPENERS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'its', 'there', 'here', 'i', 'we', 'our',
  'you', 'your', 'he', 'she', 'his', 'her', 'they', 'their', 'them', 'my', 'in', 'on', 'at', 'for',
  'to', 'by', 'with', 'from', 'of', 'as', 'after', 'before', 'during', 'when', 'while', 'if', 'since',
  'because', 'although', 'though', 'however', 'but', 'and', 'or', 'so', 'yet', 'also', 'thus',
  'therefore', 'hence', 'moreover', 'furthermore', 'additionally', 'finally', 'first', 'second',
  'third', 'then', 'next', 'both', 'all', 'some', 'many', 'most', 'each', 'every', 'such', 'one',
  'two', 'no', 'not', 'what', 'why', 'how', 'who', 'where', 'which', 'using', 'among', 'despite',
  'similarly', 'conversely', 'overall', 'results', 'methods', 'conclusion', 'conclusions',
  'background', 'objective', 'objectives', 'is', 'are', 'was', 'were', 'do', 'does', 'did', 'can',
  'please', 'see', 'note', 'further', 'other', 'another', 'only', 'even', 'still', 'instead',
]);
