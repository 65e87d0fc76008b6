/** The memories group's export and restore routes: each calls one use case and shapes the answer. */
import type { Container } from '../adapters/container';
import { getExport, startExport, startRestore } from '../core/use-cases/memory-portability';
import { dataResponse } from '../http/responses';
import { bind, type BoundRoute } from '../http/handler';
import { portabilityApi } from './portability-schemas';

export const portabilityRoutes = (deps: Container): BoundRoute[] => [
  bind(portabilityApi.startExport, async ({ params }, { accountId }) =>
    dataResponse({ exportID: (await startExport(deps, accountId, params.id)).id }),
  ),
  bind(portabilityApi.getExport, async ({ params }, { accountId }) => {
    const found = await getExport(deps, accountId, params.id);
    const { id, memoryId, state, url, size, error, createdAt, updatedAt } = found;
    return dataResponse({ exportID: id, memoryID: memoryId, state, url, size, error, createdAt, updatedAt });
  }),
  bind(portabilityApi.restore, async ({ body }, { accountId }) =>
    dataResponse({ memoryID: (await startRestore(deps, accountId, body)).id }),
  ),
];
