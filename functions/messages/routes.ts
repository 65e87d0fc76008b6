/** The messages group: each route calls one use case and shapes the answer. */
import { container } from '../adapters/container';
import { retrievalIndexingOf } from '../adapters/indexing';
import type { Message } from '../core/model';
import { searchMessages } from '../core/use-cases/message-search';
import { createMessage, deleteMessage, getMessage, listMessages } from '../core/use-cases/messages';
import { dataAnswer, deletedAnswer, listAnswer } from '../http/answers';
import { fitPage, fittingHead, LIST_CONTENT_CHARS, truncated, wireBytes } from '../http/response-budget';
import { bind } from '../http/handler';
import { messagesApi } from './schemas';

function presentMessage(message: Message) {
  return {
    id: message.id,
    sessionID: message.sessionID,
    role: message.role,
    content: message.content,
    userID: message.accountId,
    customerUserID: message.customerUserID,
    createdAt: message.createdAt,
    updatedAt: message.updatedAt,
  };
}

/** A message in a list or search answer: long content cut, with `contentTruncated`. */
const presentListed = (message: Message) => ({ ...presentMessage(message), ...truncated(message.content, LIST_CONTENT_CHARS) });

export const messageRoutes = [
  bind(messagesApi.create, async ({ body }, { accountId }) =>
    dataAnswer(presentMessage(await createMessage(container(), accountId, body))),
  ),
  bind(messagesApi.list, async ({ query }, { accountId }) => {
    const { sessionID, customerUserID, role, ...page } = query;
    const read = (request: typeof page) => listMessages(container(), accountId, { sessionID, customerUserID, role }, request);
    const result = await fitPage(read, page, (message) => wireBytes(presentListed(message)));
    return listAnswer('messages', result, presentListed);
  }),
  bind(messagesApi.search, async ({ query }, { accountId }) => {
    const base = container();
    const found = await searchMessages({ ...base, ...retrievalIndexingOf(base) }, accountId, query);
    const presented = found.map(({ message, score }) => ({ ...presentListed(message), score }));
    const messages = fittingHead(presented, wireBytes);
    return { body: { status: 'success', messages, count: messages.length } };
  }),
  bind(messagesApi.get, async ({ params }, { accountId }) => dataAnswer(presentMessage(await getMessage(container(), accountId, params.id)))),
  bind(messagesApi.delete, async ({ params }, { accountId }) => {
    await deleteMessage(container(), accountId, params.id);
    return deletedAnswer(`message '${params.id}' deleted`);
  }),
];
