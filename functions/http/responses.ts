/** Success response bodies shared by every group (errors are wire-errors.ts). */
import type { Page } from '../core/model';
import type { RouteResult } from './handler';

export function dataResponse(data: unknown): RouteResult {
  return { body: { status: 'success', data } };
}

export function deletedResponse(message: string): RouteResult {
  return { body: { status: 'success', message } };
}

export function listResponse<T>(name: string, page: Page<T>, present: (item: T) => unknown): RouteResult {
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
