/** The messages group: each route calls one use case and shapes the answer. */
import type { Container } from '../adapters/container';
import type { RetrievalIndexing } from '../adapters/indexing';
import type { Message } from '../core/model';
import { searchMessages } from '../core/use-cases/message-search';
import { createMessage, deleteMessage, getMessage, listMessages } from '../core/use-cases/messages';
import { dataResponse, deletedResponse, listResponse } from '../http/responses';
import { fitPage, fittingWireHead, LIST_CONTENT_CHARS, truncated, wireBytes } from '../http/response-budget';
import { bind, type BoundRoute } from '../http/handler';
import { messagesApi } from './schemas';

function presentMessage(message: Message) {
  return {
    id: message.id,
    sessionID: message.sessionId,
    role: message.role,
    content: message.content,
    userID: message.accountId,
    customerUserID: message.customerUserId,
    createdAt: message.createdAt,
    updatedAt: message.updatedAt,
  };
}

/** A message in a list or search answer: long content cut, with `contentTruncated`. */
const presentListed = (message: Message) => ({ ...presentMessage(message), ...truncated(message.content, LIST_CONTENT_CHARS) });

/** The messages function's deps: the container and the retrieval indexing (message search reads indexes). */
export type MessagesDeps = Container & RetrievalIndexing;

export const messageRoutes = (deps: MessagesDeps): BoundRoute[] => [
  bind(messagesApi.create, async ({ body: { sessionID, customerUserID, ...message } }, { accountId }) => {
    const created = await createMessage(deps, accountId, { ...message, sessionId: sessionID, customerUserId: customerUserID });
    return dataResponse(presentMessage(created));
  }),
  bind(messagesApi.list, async ({ query }, { accountId }) => {
    const { sessionID, customerUserID, role, ...page } = query;
    const read = (request: typeof page) =>
      listMessages(deps, accountId, { sessionId: sessionID, customerUserId: customerUserID, role }, request);
    const result = await fitPage(read, page, (message) => wireBytes(presentListed(message)));
    return listResponse('messages', result, presentListed);
  }),
  bind(messagesApi.search, async ({ query }, { accountId }) => {
    const { sessionID, customerUserID, ...search } = query;
    const found = await searchMessages(deps, accountId, { ...search, sessionId: sessionID, customerUserId: customerUserID });
    const presented = found.map(({ message, score }) => ({ ...presentListed(message), score }));
    const messages = fittingWireHead(presented);
    return { body: { status: 'success', messages, count: messages.length } };
  }),
  bind(messagesApi.get, async ({ params }, { accountId }) => dataResponse(presentMessage(await getMessage(deps, accountId, params.id)))),
  bind(messagesApi.delete, async ({ params }, { accountId }) => {
    await deleteMessage(deps, accountId, params.id);
    return deletedResponse(`message '${params.id}' deleted`);
  }),
];
