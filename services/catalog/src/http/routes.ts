import { PROBE_ROUTES, RouteTable, type DeclaredRoute } from '@marketplace/http';
import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import type { CatalogContext } from '../usecases/context';
import { registerPartnerRoutes } from './partner-routes';
import { registerTenantRoutes } from './tenant-routes';

/** Routes of this service. /healthz, /readyz and /metrics come from the shared HTTP app. */
export function registerRoutes(
  service: Pick<ServiceContext<typeof settings>, 'routes'>,
  catalog: CatalogContext,
): void {
  declare(service.routes, catalog);
}

function declare(routes: RouteTable, catalog: CatalogContext): void {
  registerTenantRoutes(routes, catalog);
  registerPartnerRoutes(routes, catalog);
}

/**
 * The route table with each route's audience, probes included, as the service serves it
 * (`node dist/main.js --routes`): registration only captures the context, so none is needed.
 */
export function declaredRoutes(): DeclaredRoute[] {
  const routes = new RouteTable();
  declare(routes, {} as CatalogContext);
  return [...PROBE_ROUTES, ...routes.routes()];
}
