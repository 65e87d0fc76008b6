/**
 * The languages the analyzer knows, and the detector that picks one for a text.
 *
 * Detection is a script-and-function-word heuristic over the text's first `DETECT_CHARS` characters:
 * 1. Han, Hiragana and Katakana against Latin letters: when CJK characters make up at least 40% of the
 *    letters (one CJK character weighing like three Latin letters, a rough word count), the text is
 *    Japanese if kana are more than 5% of them, else Chinese. English text quoting a Japanese name
 *    stays English.
 * 2. Otherwise each language scores the number of its common function words in the text ("the", "of"…
 *    for English; "der", "und"… for German). English wins unless another language has at least
 *    `MIN_HITS` distinct function words ("IL-6, IL-17" is not Italian), at least `LEAD` times English's
 *    hits and more than `MIN_SHARE` of the words. A text with no evidence (a name, a code, a short
 *    title) is English for `detectLanguage`, and takes its memory's dominant language in
 *    `detectLanguages`; English text is analyzed exactly as before languages existed. The scan stops
 *    early once English leads clearly (most English texts, after 40 to 80 words).
 */

import { wordLanguageStopwords } from './language-terms';
import { ENGLISH_STOPWORDS } from './stopwords';

/** A language with its own analysis: ISO 639-1 codes. */
export type Language = 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl' | 'zh' | 'ja';

/** Every language the analyzer knows, English first. */
export const LANGUAGES: readonly Language[] = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'zh', 'ja'];

/** Whether `value` names a language the analyzer knows. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Whether `language` is written without spaces between words (segmented with `Intl.Segmenter`). */
export function isCjkLanguage(language: Language): language is 'zh' | 'ja' {
  return language === 'zh' || language === 'ja';
}

const DETECT_CHARS = 2000;
const VOWEL = /^[aeiouàáâãèéêìíòóôõùú]$/u;
const MIN_HITS = 2;
/** Share of the words the winner's function words must exceed (prose: a third or more; an English sentence citing a German title: a quarter). */
const MIN_SHARE = 0.25;
const LEAD = 2;
/** Words between checks for a clear English lead, which ends the scan early (most texts). */
const CHECK_EVERY = 40;
const CLEAR_HITS = 8;
const CLEAR_LEAD = 4;
const CJK_LETTER_SHARE = 0.4;
const CJK_WEIGHT = 3;
const KANA_SHARE = 0.05;

/** Frequent function words of each language, beyond its stopword list. */
const COMMON_WORDS: Readonly<Record<ScoredLanguage, string>> = {
  en: 'the and of to in a is that was for with are as on this from have which were has they their been what would there these its it be by at an you he she we not but or his her had who will can into than also after',
  de: 'der die das und ist nicht ein eine einer eines einem dem den des mit von zu auf für sich auch werden wird wurde sind haben nach oder wie aus über noch nur ich sie wir zum zur im niemand jeder darf',
  fr: 'le la les des du un une est et dans que qui pour pas sur au aux avec ce cette il elle sont ont été par ne se sa ses leur nous vous être nul toute tout chacun',
  es: 'el los las del y es en que un una por con para se su sus al lo como más pero está fue ha han este esta entre cuando muy sobre también nadie toda todo será',
  it: 'il lo la gli le di del della dei delle degli e è che un una con sono si da nel nella al alla anche più questo questa ha ogni nessun nessuno potrà',
  pt: 'o os do da dos das e é em que um uma para com não na nos nas por se ao à mais como mas foi são seu sua também ninguém toda todo tem pode',
  nl: 'de het een en van dat op te zijn met voor niet aan er ook als bij door wordt werd maar om dan zij hij wij naar niemand ieder zal mag',
};

type ScoredLanguage = Exclude<Language, 'zh' | 'ja'>;
const SCORED: readonly ScoredLanguage[] = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'];

/**
 * Function word → the languages it counts for: each language's common words and stopword list (English:
 * the Snowball list of stopwords.ts), except that a word English shares with another language ("a",
 * "in", "is", "was", "die", "per") counts for none: English must win on English words alone, and the
 * others on words that are not English. One-letter words count only when vowels (Portuguese "o", "é"; not initials or "l'").
 */
const LANGUAGES_OF_WORD: ReadonlyMap<string, readonly ScoredLanguage[]> = (() => {
  const lists = new Map<ScoredLanguage, Set<string>>(
    SCORED.map((language) => {
      const words = new Set(COMMON_WORDS[language].split(' '));
      for (const word of language === 'en' ? ENGLISH_STOPWORDS : wordLanguageStopwords(language)) words.add(word);
      return [language, words];
    }),
  );
  const english = lists.get('en') ?? new Set<string>();
  const map = new Map<string, ScoredLanguage[]>();
  for (const [language, words] of lists) {
    for (const word of words) {
      const shared = language === 'en' ? SCORED.some((other) => other !== 'en' && lists.get(other)?.has(word)) : english.has(word);
      if (!shared && (word.length > 1 || VOWEL.test(word))) map.set(word, [...(map.get(word) ?? []), language]);
    }
  }
  return map;
})();

const CJK_CHARACTER = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;
const HAS_CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const KANA = /[\p{sc=Hiragana}\p{sc=Katakana}]/gu;
const LATIN_LETTER = /\p{sc=Latin}/gu;
/** Words with their apostrophes ("can't", "l'homme": neither counts), so no letter of a contraction passes for a French "t". */
const WORD = /\p{L}+(?:['’]\p{L}+)*/gu;

/** The language of `text` (English when nothing speaks for another; see the module comment). */
export function detectLanguage(text: string): Language {
  return languageEvidence(text) ?? 'en';
}

/**
 * The languages of a memory's texts, detected together: a text with no evidence either way (a short
 * title, a name, "Nadie será privado de su propiedad.") takes the Latin-script language most of the
 * others show (`fallback`, English by default, when none shows one; such a text has no CJK script, so
 * it is never Chinese): a Spanish memory's short chunks are Spanish, an English memory's English.
 */
export function detectLanguages(texts: readonly string[], fallback: Language = 'en'): Language[] {
  const found = texts.map(languageEvidence);
  const counts = new Map<Language, number>();
  for (const language of found) if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  let dominant: Language = isCjkLanguage(fallback) ? 'en' : fallback;
  for (const language of SCORED) if ((counts.get(language) ?? 0) > (counts.get(dominant) ?? 0)) dominant = language;
  return found.map((language) => language ?? dominant);
}

/** The language `text` shows, or undefined when it shows none (too few function words of any). */
function languageEvidence(text: string): Language | undefined {
  const sample = text.length > DETECT_CHARS ? text.slice(0, DETECT_CHARS) : text;
  const cjk = HAS_CJK.test(sample) ? countMatches(sample, CJK_CHARACTER) : 0;
  if (cjk > 0) {
    const latin = countMatches(sample, LATIN_LETTER);
    if (cjk * CJK_WEIGHT >= CJK_LETTER_SHARE * (latin + cjk * CJK_WEIGHT)) {
      return countMatches(sample, KANA) > KANA_SHARE * cjk ? 'ja' : 'zh';
    }
  }
  return languageByFunctionWords(sample.toLowerCase());
}

function languageByFunctionWords(lowercase: string): Language | undefined {
  const tally = tallyFunctionWords(lowercase);
  if (tally === 'en') return 'en';
  const { hits, distinct, words } = tally;
  const english = hits.get('en') ?? 0;
  const best = SCORED.filter((language) => language !== 'en').reduce((a, b) => ((hits.get(b) ?? 0) > (hits.get(a) ?? 0) ? b : a));
  const bestHits = hits.get(best) ?? 0;
  const evident = (distinct.get(best)?.size ?? 0) >= MIN_HITS;
  if (evident && bestHits >= LEAD * english && bestHits > MIN_SHARE * words) return best;
  return english >= MIN_HITS ? 'en' : undefined;
}

interface Tally {
  readonly hits: ReadonlyMap<Language, number>;
  readonly distinct: ReadonlyMap<Language, ReadonlySet<string>>;
  readonly words: number;
}

/** Function-word hits per language over the words of `lowercase`, or 'en' once English leads clearly. */
function tallyFunctionWords(lowercase: string): Tally | 'en' {
  const hits = new Map<Language, number>(SCORED.map((language) => [language, 0]));
  const distinct = new Map<Language, Set<string>>(SCORED.map((language) => [language, new Set()]));
  let words = 0;
  for (const [word] of lowercase.matchAll(WORD)) {
    for (const language of LANGUAGES_OF_WORD.get(word) ?? []) {
      hits.set(language, (hits.get(language) ?? 0) + 1);
      distinct.get(language)?.add(word);
    }
    if (++words % CHECK_EVERY === 0 && clearlyEnglish(hits)) return 'en';
  }
  return { hits, distinct, words };
}

/** English function words already outnumber every other language's by far: reading on changes nothing. */
function clearlyEnglish(hits: ReadonlyMap<Language, number>): boolean {
  const english = hits.get('en') ?? 0;
  if (english < CLEAR_HITS) return false;
  for (const [language, count] of hits) if (language !== 'en' && count * CLEAR_LEAD > english) return false;
  return true;
}

function countMatches(text: string, pattern: RegExp): number {
  let count = 0;
  for (const _ of text.matchAll(pattern)) count++;
  return count;
}
