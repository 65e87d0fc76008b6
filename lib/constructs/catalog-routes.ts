/**
 * API Gateway resources and methods from the route catalog: each route's path becomes a resource (its
 * `{id}` segments path parameters), its method a Lambda proxy method of its group's function. A route
 * added to the catalog is deployed without touching the stack.
 */
import type { Integration, Method, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Group, RouteSpec } from '../../functions/http/route-spec';

/**
 * The API Gateway resource path of a catalog path: API Gateway has no trailing-slash resources (a
 * request to `/memory/` reaches `/memory`), so the trailing slash is dropped.
 */
export function resourcePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Adds one method per catalog route, integrated with its group's function; returns them in order. */
export function addCatalogRoutes(api: RestApi, routes: readonly RouteSpec[], integrationFor: (group: Group) => Integration): Method[] {
  return routes.map((route) => {
    const path = resourcePath(route.path);
    const resource = path === '/' ? api.root : api.root.resourceForPath(path);
    return resource.addMethod(route.method, integrationFor(route.group));
  });
}
