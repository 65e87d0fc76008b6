/**
 * GET /memories/profile/{id}: what a graph memory holding a customer user's sessions knows of them,
 * consolidated: preferences (likes, dislikes, preferences, habits, wishes, diet) and facts (where they live,
 * where and as what they work, family, plans), each the sentence that said it with its message and
 * validity. Those holding at `asOf` (default now) come first, latest first; then what they said before and
 * later replaced ("we moved to Berlin" closes "I live in Paris"). Statements made after `asOf` are left out.
 *
 * Built as messages arrive, with no model: each conversation sync extracts the first-person statements of
 * the customer user's messages into the graph (engine/graph/profile-statements.ts). Sessions removed from the
 * memory contribute nothing.
 */
import { loadedGraph } from './current-version';
import { BadRequestError } from '../errors';
import { type ProfileEntry, profileOf } from '../../engine';
import { isExcludedChunk } from '../model';
import type { MemoryStore } from '../ports';
import type { IndexCache } from '../stored-index/index-cache';
import { getMemory } from './memories';

export interface ProfileDeps {
  memories: MemoryStore;
  indexes: Pick<IndexCache, 'loadGraph'>;
}

interface ProfileEntryView {
  content: string;
  validFrom: string;
  validTo: string | null;
  /** The message that said it. */
  sourceId: string;
}

export interface UserProfile {
  customerUserId: string;
  preferences: ProfileEntryView[];
  facts: ProfileEntryView[];
}

export async function userProfile(
  deps: ProfileDeps,
  accountId: string,
  id: string,
  request: { customerUserId: string; asOf?: string | undefined },
): Promise<UserProfile> {
  const read = await getMemory(deps, accountId, id);
  if (read.memoryType !== 'graph')
    throw BadRequestError.forField('id', `memory '${id}' is a vector memory; profiles are kept by graph memories`);
  const empty = { customerUserId: request.customerUserId, preferences: [], facts: [] };
  const { memory, loaded } = await loadedGraph(deps, accountId, read);
  if (!loaded) return empty;
  const profile = profileOf(loaded.graph, request.customerUserId, request.asOf ?? new Date().toISOString());
  const excluded = new Set(memory.excludedFileIds);
  const present = ({ content, validFrom, validTo, sourceId }: ProfileEntry): ProfileEntryView => ({
    content,
    validFrom,
    validTo,
    sourceId,
  });
  // a session removed from the memory, or a deleted message, is excluded until the next version leaves it out
  const kept = (entry: ProfileEntry) => {
    const chunk = loaded.chunks.get(entry.chunkId);
    return chunk === undefined || !isExcludedChunk(excluded, chunk);
  };
  return {
    customerUserId: request.customerUserId,
    preferences: profile.preferences.filter(kept).map(present),
    facts: profile.facts.filter(kept).map(present),
  };
}
