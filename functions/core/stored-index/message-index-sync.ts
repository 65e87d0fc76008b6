/**
 * What the account's message index's pending changes (ConversationSyncStore, target: the account) hold
 * beside the changed sessions: `ERASED_MARK` says a message or a session was deleted since the last build,
 * so that build flags the tombstones it makes for purging (their text must leave every live segment at the
 * merge that follows: docs/segments.md). No session id can equal it (ids start with a letter or digit).
 */
export const ERASED_MARK = '!erased';
