/**
 * The one place that talks to wink-nlp: loads the English lite model once per process (lazily, on
 * first use) and turns a text into plain arrays that the extractors read: tokens with part of speech,
 * lemma and character offsets, sentence spans, and wink's own entity spans (dates, numbers, money…;
 * the lite model has no person/place/organisation recogniser, so names come from part-of-speech).
 * Words wink splits at non-ASCII letters are joined back ("Bełchatów"). A text detected as another
 * language than English keeps wink's tokens and sentences, but its parts of speech come from
 * capitalisation (capitalised-names.ts), not from the English model.
 */
import winkNLP, { type ItsFunction, type PartOfSpeech, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { detectLanguage } from '../lexical/language';
import { tagByCapitalisation } from './capitalised-names';

/** One token of a parsed text. */
export interface ParsedToken {
  /** The token as written. */
  readonly text: string;
  /** Lowercase form. */
  readonly normal: string;
  /** Lemma (lowercase). */
  readonly lemma: string;
  /** Universal part-of-speech tag. */
  readonly pos: PartOfSpeech;
  /** Character offsets into the text, end exclusive. */
  readonly start: number;
  readonly end: number;
  /** Index of the token's sentence. */
  readonly sentence: number;
}

/** A range of tokens, end exclusive. */
interface TokenSpan {
  readonly tokenStart: number;
  readonly tokenEnd: number;
}

/** A sentence: its tokens and character offsets. */
export interface ParsedSentence extends TokenSpan {
  readonly start: number;
  readonly end: number;
}

/** An entity found by wink's recogniser, e.g. DATE, CARDINAL, MONEY, URL. */
interface ValueSpan extends TokenSpan {
  readonly label: string;
}

/** A parsed text. */
export interface ParsedText {
  readonly text: string;
  readonly tokens: readonly ParsedToken[];
  readonly sentences: readonly ParsedSentence[];
  readonly values: readonly ValueSpan[];
}

let nlpInstance: WinkMethods | undefined;

/** The wink-nlp instance (sentence boundaries, part of speech, value entities), created once. */
function winkInstance(): WinkMethods {
  nlpInstance ??= winkNLP(model, ['sbd', 'pos', 'ner']);
  return nlpInstance;
}

/** Parses `text` into tokens, sentences and value entities. */
export function parseText(text: string): ParsedText {
  const nlp = winkInstance();
  const { its } = nlp;
  const doc = nlp.readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out(its.value) as string[];
  const normals = tokens.out(its.normal) as string[];
  const lemmas = tokens.out(its.lemma as unknown as ItsFunction<string>) as string[]; // typings lag the API
  const tags = tokens.out(its.pos) as PartOfSpeech[];
  const sentenceSpans = doc.sentences().out(its.span) as unknown as number[][];
  const sentenceOf = sentenceIndexes(sentenceSpans, values.length);
  const raw: ParsedToken[] = [];
  let cursor = 0;
  values.forEach((value, index) => {
    const found = text.indexOf(value, cursor);
    const start = found < 0 ? cursor : found;
    const end = found < 0 ? cursor : found + value.length;
    cursor = end;
    const normal = normals[index] ?? value.toLowerCase();
    raw.push({
      text: value,
      normal,
      lemma: lemmas[index] ?? normal,
      pos: tags[index] ?? 'X',
      start,
      end,
      sentence: sentenceOf[index] ?? 0,
    });
  });
  const { tokens: parsed, newIndex } = joinSplitWords(raw);
  const result: ParsedText = {
    text,
    tokens: parsed,
    sentences: toSentences(sentenceSpans, newIndex, parsed),
    values: toValues(doc, nlp, newIndex),
  };
  const language = detectLanguage(text);
  return language === 'en' ? result : tagByCapitalisation(result, language);
}

const LETTERS = /^[\p{L}\p{M}]+$/u;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * wink's tokenizer splits words at some non-ASCII letters ("Bełchatów" → "Be", "ł", "chatów");
 * adjacent letter-only pieces where one holds a non-ASCII letter are joined back, as a proper noun
 * when any piece was one (or was an unknown capital). Returns the old → new token index map.
 */
function joinSplitWords(raw: readonly ParsedToken[]): { tokens: ParsedToken[]; newIndex: Uint32Array } {
  const out: ParsedToken[] = [];
  const newIndex = new Uint32Array(raw.length);
  raw.forEach((token, index) => {
    const previous = out[out.length - 1];
    const joins =
      previous !== undefined &&
      previous.end === token.start &&
      previous.sentence === token.sentence &&
      LETTERS.test(previous.text) &&
      LETTERS.test(token.text) &&
      (NON_ASCII.test(previous.text) || NON_ASCII.test(token.text));
    if (joins && previous !== undefined) {
      const textJoined = previous.text + token.text;
      const proper = previous.pos === 'PROPN' || token.pos === 'PROPN' || /^\p{Lu}/u.test(textJoined);
      const normal = previous.normal + token.normal;
      out[out.length - 1] = { ...previous, text: textJoined, normal, lemma: normal, pos: proper ? 'PROPN' : previous.pos, end: token.end };
    } else out.push(token);
    newIndex[index] = out.length - 1;
  });
  return { tokens: out, newIndex };
}

function sentenceIndexes(spans: number[][], tokenCount: number): Uint32Array {
  const out = new Uint32Array(tokenCount);
  spans.forEach(([from = 0, to = -1], sentence) => out.fill(sentence, from, to + 1));
  return out;
}

/** Sentences over the joined tokens; character spans skip leading whitespace tokens. */
function toSentences(spans: number[][], newIndex: Uint32Array, tokens: ParsedToken[]): ParsedSentence[] {
  return spans.map(([from = 0, to = -1]) => {
    const tokenStart = newIndex[from] ?? 0;
    const tokenEnd = to < 0 ? tokenStart : (newIndex[to] ?? 0) + 1;
    let first = tokenStart;
    while (first < tokenEnd - 1 && tokens[first]?.pos === 'SPACE') first++;
    return { tokenStart, tokenEnd, start: tokens[first]?.start ?? 0, end: tokens[tokenEnd - 1]?.end ?? 0 };
  });
}

function toValues(doc: ReturnType<WinkMethods['readDoc']>, nlp: WinkMethods, newIndex: Uint32Array): ValueSpan[] {
  const entities = doc.entities();
  const spans = entities.out(nlp.its.span) as unknown as number[][];
  const labels = entities.out(nlp.its.type) as string[];
  return spans.map(([from = 0, to = 0], index) => ({
    tokenStart: newIndex[from] ?? 0,
    tokenEnd: (newIndex[to] ?? 0) + 1,
    label: labels[index] ?? 'VALUE',
  }));
}
