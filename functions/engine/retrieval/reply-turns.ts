/**
 * Replies beside the turns that ask: in a conversation, a turn that asks ("What did it look like?",
 * "You play any instruments?") matches a query by the words of its question, while what the question
 * wants is in the turn after it, the reply ("Yeah, I play clarinet!"). A question-shaped turn that ranks
 * is therefore followed, right after it and at its score, by the next turn of its conversation (unless
 * that turn already ranks above it); the reply is moved up, not repeated. Nothing is fitted: a turn asks
 * when its text ends with a question mark, and the reply takes the asking turn's place plus one.
 *
 * What a reply takes from its question is the question's match to the query's words, not its time: with a
 * prior over chunks (time in queries, time-prior.ts) the reply scores the asking turn's score over the
 * asking turn's own lift, times its own lift (never above the asking turn). A question stating the named
 * time ("going camping next month?") lifts its reply only as far as the reply is of that time itself;
 * one that falls below the asking turn takes its place by score among the rest.
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
  /** The prior the hits' scores were multiplied by (1 + prior), if any (see the module comment). */
  prior?: ((ordinal: number) => number) | undefined;
}

/** `hits` (best first) with each asking turn's reply placed after it (see the module comment). */
export function withReplies(hits: readonly FusedHit[], lookup: ReplyLookup): FusedHit[] {
  const placed = new Set<number>();
  const out: FusedHit[] = [];
  // replies scoring below their asking turn, best first, each placed before the first hit it outscores
  const pending: FusedHit[] = [];
  const place = (hit: FusedHit): void => {
    if (placed.has(hit.ordinal)) return;
    out.push(hit);
    placed.add(hit.ordinal);
  };
  for (const hit of hits) {
    while (pending.length > 0 && (pending[0]?.score ?? 0) > hit.score) place(pending.shift() as FusedHit);
    if (placed.has(hit.ordinal)) continue;
    place(hit);
    const reply = replyTo(hit, lookup);
    if (reply === undefined || placed.has(reply.ordinal)) continue;
    if (reply.score >= hit.score) place(reply);
    else pending.splice(insertionPoint(pending, reply.score), 0, reply);
  }
  for (const reply of pending) place(reply);
  return out;
}

/** The reply an asking hit brings, at its score (the asking turn's, its own time lift for the asker's), or undefined. */
function replyTo(hit: FusedHit, lookup: ReplyLookup): FusedHit | undefined {
  if (!asksQuestion(lookup.textOf(hit.ordinal))) return undefined;
  const reply = lookup.replyOf(hit.ordinal);
  if (reply === undefined || (lookup.allow && !lookup.allow(reply))) return undefined;
  const lift = (ordinal: number): number => 1 + Math.max(0, lookup.prior?.(ordinal) ?? 0);
  const score = hit.score * Math.min(1, lift(reply) / lift(hit.ordinal));
  return { ordinal: reply, score, parts: { reply: score } };
}

/** Where a score goes in a best-first list: after every entry scoring at least as much. */
function insertionPoint(list: readonly FusedHit[], score: number): number {
  const at = list.findIndex((entry) => entry.score < score);
  return at < 0 ? list.length : at;
}
