/**
 * The speaker statements of a customer user's message (profile-statements.ts), kept per graph for the
 * messages it merged lately: a session synced again is merged again whole (graph-build.ts), so without
 * them each sync would read every message the session holds once more (issue #25's cost bound). Kept by
 * message text and source; copies are kept and handed out (the validity pass closes statements in place).
 */
import type { KnowledgeGraph, SpeakerStatement } from './graph-model';
import { speakerStatements } from './profile-statements';

type StatementSource = Parameters<typeof speakerStatements>[1];

/** Messages kept per graph (the oldest read dropped first). */
const RECENT_MESSAGES = 20_000;

const recent = new WeakMap<KnowledgeGraph, Map<string, readonly SpeakerStatement[]>>();

/** `speakerStatements(text, source)`, read again from what `graph` kept when it read this message before. */
export function messageStatements(graph: KnowledgeGraph, text: string, source: StatementSource): SpeakerStatement[] {
  let kept = recent.get(graph);
  if (!kept) recent.set(graph, (kept = new Map()));
  const key = `${source.speaker}\u0000${source.chunkId}\u0000${source.sourceId}\u0000${source.time}\u0000${text}`;
  const known = kept.get(key);
  if (known) return known.map((statement) => ({ ...statement }));
  const statements = speakerStatements(text, source);
  kept.set(
    key,
    statements.map((statement) => ({ ...statement })),
  );
  if (kept.size > RECENT_MESSAGES) kept.delete(kept.keys().next().value as string);
  return statements;
}
