/**
 * The languages the analyzer knows, and the detector that picks one for a text.
 *
 * Detection is a script-and-function-word heuristic over the text's first `DETECT_CHARS` characters:
 * 1. Han, Hiragana and Katakana against Latin letters: when CJK characters make up at least 40% of the
 *    letters (one CJK character weighing like three Latin letters, a rough word count), the text is
 *    Japanese if kana are more than 5% of them, else Chinese. English text quoting a Japanese name
 *    stays English.
 * 2. Otherwise each language scores the number of its common function words in the text ("the", "of"…
 *    for English; "der", "und"… for German). English wins unless another language scores at least
 *    `MIN_HITS` and at least `LEAD` times English: a text with no evidence (a name, a code, a short
 *    title) stays English, so English text is analyzed exactly as before languages existed. The scan stops
 *    early once English leads clearly (most English texts, after 40 to 80 words).
 */

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
const MIN_HITS = 3;
const LEAD = 2;
/** Words between checks for a clear English lead, which ends the scan early (most texts). */
const CHECK_EVERY = 40;
const CLEAR_HITS = 8;
const CLEAR_LEAD = 4;
const CJK_LETTER_SHARE = 0.4;
const CJK_WEIGHT = 3;
const KANA_SHARE = 0.05;

/**
 * Frequent function words that tell the languages apart; words shared by languages count for each, and words
 * that are also English words ("in", "is", "as", "do", "per") are left out of the other lists.
 */
const FUNCTION_WORDS: Readonly<Record<Exclude<Language, 'zh' | 'ja'>, ReadonlySet<string>>> = {
  en: words(
    'the and of to in a is that was for with are as on this from have which were has they their been what would there these its it be by at an you he she we not but or his her had who will can into than also after',
  ),
  de: words('der die das und ist nicht ein eine einer eines einem dem den des mit von zu auf für sich auch werden wird wurde sind haben nach oder wie aus über noch nur ich sie wir zum zur im'),
  fr: words('le la les des du un une est et dans que qui pour pas sur au aux avec ce cette il elle sont ont été par ne se sa ses leur nous vous être'),
  es: words('el los las del y es en que un una por con para se su sus al lo como más pero está fue ha han este esta entre cuando muy sobre también'),
  it: words('il lo la gli le di del della dei delle degli e è che un una con sono si da nel nella al alla anche più questo questa ha'),
  pt: words('o os do da dos das e é em que um uma para com não na nos nas por se ao à mais como mas foi são seu sua também'),
  nl: words('de het een en van dat op te zijn met voor niet aan ook als bij wordt werd maar dan zij hij wij naar'),
};
const SCORED = Object.keys(FUNCTION_WORDS) as Array<keyof typeof FUNCTION_WORDS>;
/** Function word → the languages holding it. */
const LANGUAGES_OF_WORD: ReadonlyMap<string, readonly Language[]> = (() => {
  const map = new Map<string, Language[]>();
  for (const language of SCORED) for (const word of FUNCTION_WORDS[language]) map.set(word, [...(map.get(word) ?? []), language]);
  return map;
})();

const CJK_CHARACTER = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;
const HAS_CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const KANA = /[\p{sc=Hiragana}\p{sc=Katakana}]/gu;
const LATIN_LETTER = /\p{sc=Latin}/gu;
const WORD = /\p{L}+/gu;

/** The language of `text` (English when nothing speaks for another; see the module comment). */
export function detectLanguage(text: string): Language {
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

function languageByFunctionWords(lowercase: string): Language {
  const hits = new Map<Language, number>(SCORED.map((language) => [language, 0]));
  let words = 0;
  for (const [word] of lowercase.matchAll(WORD)) {
    for (const language of LANGUAGES_OF_WORD.get(word) ?? []) hits.set(language, (hits.get(language) ?? 0) + 1);
    if (++words % CHECK_EVERY === 0 && clearlyEnglish(hits)) return 'en';
  }
  const english = hits.get('en') ?? 0;
  let best: Language = 'en';
  let bestHits = 0;
  for (const language of SCORED) {
    const count = hits.get(language) ?? 0;
    if (language !== 'en' && count > bestHits) {
      best = language;
      bestHits = count;
    }
  }
  return bestHits >= MIN_HITS && bestHits >= LEAD * english ? best : 'en';
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

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}
