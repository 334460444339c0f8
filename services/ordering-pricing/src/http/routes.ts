import { PROBE_ROUTES, RouteTable, type DeclaredRoute } from '@marketplace/http';
import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import type { OrderingContext } from '../usecases/context';
import { registerPartnerRoutes } from './partner-routes';
import { registerPaymentRoutes } from './payment-routes';
import { registerTenantRoutes } from './tenant-routes';

/** Routes of this service. /healthz, /readyz and /metrics come from the shared HTTP app. */
export function registerRoutes(
  service: Pick<ServiceContext<typeof settings>, 'routes'>,
  ordering: OrderingContext,
): void {
  declare(service.routes, ordering);
}

function declare(routes: RouteTable, ordering: OrderingContext): void {
  registerPartnerRoutes(routes, ordering);
  registerTenantRoutes(routes, ordering);
  registerPaymentRoutes(routes, ordering);
}

/**
 * The route table with each route's audience, probes included, as the service serves it
 * (`node dist/main.js --routes`): registration only captures the context, so none is needed.
 */
export function declaredRoutes(): DeclaredRoute[] {
  const routes = new RouteTable();
  declare(routes, {} as OrderingContext);
  return [...PROBE_ROUTES, ...routes.routes()];
}
