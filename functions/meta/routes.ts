/** Health and the OpenAPI document. */
import type { Container } from '../adapters/container';
import { InternalError } from '../core/errors';
import { API_VERSION } from '../http/api-version';
import { catalog } from '../catalog';
import { bind, type BoundRoute } from '../http/handler';
import { openApiDocument } from '../http/openapi';
import { metaApi } from './schemas';

let document: unknown;

export const metaRoutes = (deps: Container): BoundRoute[] => [
  bind(metaApi.health, async () => {
    try {
      await deps.health.check();
    } catch (error) {
      throw new InternalError('stores unreachable', { cause: error });
    }
    return { body: { status: 'ok' } };
  }),
  bind(metaApi.openapi, async () => {
    document ??= openApiDocument(catalog, API_VERSION);
    return { body: document };
  }),
];
