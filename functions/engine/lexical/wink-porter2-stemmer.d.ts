/** Types for wink-porter2-stemmer, which ships none: a CommonJS module exporting one function. */
declare module 'wink-porter2-stemmer' {
  /** Porter2 (Snowball English) stem of a lowercase word. */
  export default function stem(word: string): string;
}
