/**
 * Part of speech for text in a language with no NLP model here (every language but English): wink's
 * English model would tag German or French words as English nouns and verbs and fill the graph with
 * English-model noise ("Die Häuser" as a noun phrase, "est" as a verb). Instead, only capitalisation
 * speaks: a capitalised word that is not one of the language's stopwords is a proper noun, every other
 * word is 'X' (no noun phrases, no subject-verb-object relations; entities then link by co-occurrence
 * in a sentence, see relations.ts). Punctuation, numbers and spaces keep their tags.
 *
 * - A capitalised word opening a sentence ("Gestern", "Ensuite") counts only when the next word is a
 *   name too, or the same word is capitalised elsewhere in the text away from a sentence start.
 * - German capitalises every noun, so a German word with a common-noun ending ("-ung", "-heit",
 *   "-schaft"…) is no name; other German nouns ("Bürger", "Stadt") still pass for names: there is no
 *   German lexicon here to tell them apart.
 * - Chinese and Japanese have no capitals: no names are found (no entities rather than wrong ones).
 */
import { isCjkLanguage, type Language } from '../lexical/language';
import { isWordLanguageStopword, type WordLanguage } from '../lexical/language-terms';
import type { ParsedText, ParsedToken } from './nlp';

const KEPT_TAGS = new Set(['PUNCT', 'NUM', 'SPACE', 'SYM']);
const CAPITALISED = /^\p{Lu}[\p{L}\p{M}'’-]*$/u;
/** Endings of German common nouns that names rarely have (not "-chen": München; not "-ie": Marie). */
const GERMAN_NOUN_ENDING = /(?:ung|heit|keit|schaft|tion|tät|ität|nis|ismus|ment|tum)(?:en|s)?$/u;

/** `parsed` (from wink) retagged for `language` by capitalisation (see the module comment). */
export function tagByCapitalisation(parsed: ParsedText, language: Exclude<Language, 'en'>): ParsedText {
  if (isCjkLanguage(language)) return { ...parsed, tokens: parsed.tokens.map((token) => retag(token, false)), values: [] };
  const candidate = parsed.tokens.map((token) => isNameWord(token, language));
  const starts = sentenceStarts(parsed);
  const midSentence = new Set(parsed.tokens.filter((_, index) => candidate[index] && !starts.has(index)).map((token) => token.text));
  const tokens = parsed.tokens.map((token, index) => {
    if (!candidate[index]) return retag(token, false);
    if (!starts.has(index)) return retag(token, true);
    return retag(token, midSentence.has(token.text) || candidate[index + 1] === true);
  });
  return { ...parsed, tokens };
}

function isNameWord(token: ParsedToken, language: WordLanguage): boolean {
  if (!CAPITALISED.test(token.text) || isWordLanguageStopword(language, token.normal)) return false;
  return language !== 'de' || !GERMAN_NOUN_ENDING.test(token.normal);
}

/** Indexes of the first word token of each sentence. */
function sentenceStarts(parsed: ParsedText): Set<number> {
  const starts = new Set<number>();
  for (const sentence of parsed.sentences) {
    let at = sentence.tokenStart;
    while (at < sentence.tokenEnd && KEPT_TAGS.has(parsed.tokens[at]?.pos ?? '')) at++;
    starts.add(at);
  }
  return starts;
}

function retag(token: ParsedToken, name: boolean): ParsedToken {
  if (name) return { ...token, pos: 'PROPN', lemma: token.normal };
  return KEPT_TAGS.has(token.pos) ? token : { ...token, pos: 'X', lemma: token.normal };
}
