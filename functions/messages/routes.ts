/** The messages group: each route calls one use case and shapes the answer. */
import { container } from '../adapters/container';
import { retrievalIndexingOf } from '../adapters/indexing';
import type { Message } from '../core/model';
import { searchMessages } from '../core/use-cases/message-search';
import { createMessage, deleteMessage, listMessages } from '../core/use-cases/messages';
import { dataAnswer, deletedAnswer, listAnswer } from '../http/answers';
import { bind } from '../http/handler';
import { messagesApi } from './schemas';

export function presentMessage(message: Message) {
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

export const messageRoutes = [
  bind(messagesApi.create, async ({ body }, { accountId }) =>
    dataAnswer(presentMessage(await createMessage(container(), accountId, body))),
  ),
  bind(messagesApi.list, async ({ query }, { accountId }) => {
    const { sessionID, customerUserID, role, ...page } = query;
    const result = await listMessages(container(), accountId, { sessionID, customerUserID, role }, page);
    return listAnswer('messages', result, presentMessage);
  }),
  bind(messagesApi.search, async ({ query }, { accountId }) => {
    const base = container();
    const found = await searchMessages({ ...base, ...retrievalIndexingOf(base) }, accountId, query);
    const messages = found.map(({ message, score }) => ({ ...presentMessage(message), score }));
    return { body: { status: 'success', messages, count: messages.length } };
  }),
  bind(messagesApi.delete, async ({ params }, { accountId }) => {
    await deleteMessage(container(), accountId, params.id);
    return deletedAnswer(`message '${params.id}' deleted`);
  }),
];
