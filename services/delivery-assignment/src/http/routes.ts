import { PROBE_ROUTES, RouteTable, type DeclaredRoute } from '@marketplace/http';
import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import type { DeliveryContext } from '../usecases/context';
import { registerCallbackRoutes } from './callback-routes';
import { registerConnectionRoutes } from './connection-routes';
import { registerDispatchRoutes } from './dispatch-routes';
import { registerPartnerRoutes } from './partner-routes';
import { registerTenantRoutes } from './tenant-routes';

/** Routes of this service. /healthz, /readyz and /metrics come from the shared HTTP app. */
export function registerRoutes(
  service: Pick<ServiceContext<typeof settings>, 'routes'>,
  deliveries: DeliveryContext,
): void {
  declare(service.routes, deliveries);
}

function declare(routes: RouteTable, deliveries: DeliveryContext): void {
  registerPartnerRoutes(routes, deliveries);
  registerTenantRoutes(routes, deliveries);
  registerDispatchRoutes(routes, deliveries);
  registerConnectionRoutes(routes, deliveries);
  registerCallbackRoutes(routes, deliveries);
}

/**
 * The route table with each route's audience, probes included, as the service serves it
 * (`node dist/main.js --routes`): registration only captures the context, so none is needed.
 */
export function declaredRoutes(): DeclaredRoute[] {
  const routes = new RouteTable();
  declare(routes, {} as DeliveryContext);
  return [...PROBE_ROUTES, ...routes.routes()];
}
