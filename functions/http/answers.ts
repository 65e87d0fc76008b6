/** Answer shapes shared by every group. */
import type { Page } from '../core/model';
import type { RouteResult } from './handler';

export function dataAnswer(data: unknown): RouteResult {
  return { body: { status: 'success', data } };
}

export function deletedAnswer(message: string): RouteResult {
  return { body: { status: 'success', message } };
}

export function listAnswer<T>(name: string, page: Page<T>, present: (item: T) => unknown): RouteResult {
  return {
    body: {
      status: 'success',
      [name]: page.items.map(present),
      count: page.items.length,
      nextToken: page.nextToken,
      previousToken: page.previousToken,
    },
  };
}
