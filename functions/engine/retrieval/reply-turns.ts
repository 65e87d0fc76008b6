/**
 * Replies beside the turns that ask: in a conversation, a turn that asks ("What did it look like?",
 * "You play any instruments?") matches a query by the words of its question, while what the question
 * wants is in the turn after it, the reply ("Yeah, I play clarinet!"). A question-shaped turn that ranks
 * is therefore followed, right after it and at its score, by the next turn of its conversation (unless
 * that turn already ranks above it); the reply is moved up, not repeated. Nothing is fitted: a turn asks
 * when its text ends with a question mark, and the reply takes the asking turn's place plus one.
 *
 * On the LoCoMo dev split (bench/locomo.ts) question turns are 27% of the top five turns but 11% of the
 * evidence turns; see bench/locomo/README.md for the measured effect.
 */
import type { FusedHit } from './fuse';

/** Full-width and Arabic question marks too; closing quotes and brackets after the mark are allowed. */
const ASKS = /[?？؟][\s"'”’)\]]*$/u;

/** Whether a turn's text asks a question (its last sentence ends with a question mark). */
export function asksQuestion(text: string): boolean {
  return ASKS.test(text.trimEnd());
}

export interface ReplyLookup {
  /** The next turn of the chunk's conversation (its session), or undefined: not a message, or the last one. */
  replyOf: (ordinal: number) => number | undefined;
  /** A chunk's returned text. */
  textOf: (ordinal: number) => string;
  /** Chunks that may be answered; all when absent. */
  allow?: ((ordinal: number) => boolean) | undefined;
}

/** `hits` (best first) with each asking turn's reply placed right after it (see the module comment). */
export function withReplies(hits: readonly FusedHit[], lookup: ReplyLookup): FusedHit[] {
  const placed = new Set<number>();
  const out: FusedHit[] = [];
  for (const hit of hits) {
    if (placed.has(hit.ordinal)) continue;
    out.push(hit);
    placed.add(hit.ordinal);
    if (!asksQuestion(lookup.textOf(hit.ordinal))) continue;
    const reply = lookup.replyOf(hit.ordinal);
    if (reply === undefined || placed.has(reply) || (lookup.allow && !lookup.allow(reply))) continue;
    out.push({ ordinal: reply, score: hit.score, parts: { reply: hit.score } });
    placed.add(reply);
  }
  return out;
}
