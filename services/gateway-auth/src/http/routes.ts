import { PROBE_ROUTES, RouteTable, type DeclaredRoute } from '@marketplace/http';
import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import type { GatewayContext } from '../usecases/context';
import { registerAdminRoutes } from './admin-routes';
import { registerDocsRoutes } from './docs-routes';
import { registerOAuthRoutes } from './oauth-routes';
import { registerOpenApiRoutes } from './openapi-routes';
import { registerPartnerRoutes, type PartnerRouting } from './partner/routes';
import { registerSandboxRoutes } from './partner/sandbox-routes';
import { registerPaymentProcessorRoutes } from './payment-processor-routes';
import { registerAdminForwards, registerTenantForwards } from './tenant-forward-routes';
import { registerTenantRoutes } from './tenant-routes';

/**
 * Routes of this service, each declared with its audience. /healthz, /readyz and /metrics come from
 * the shared HTTP app; the audiences' guards are set in service.ts.
 */
export function registerRoutes(
  service: Pick<ServiceContext<typeof settings>, 'routes'>,
  gateway: GatewayContext,
  routing: PartnerRouting,
): void {
  registerPartnerRoutes(service.routes, gateway, routing);
  registerSandboxRoutes(service.routes, gateway, routing);
  registerAdminRoutes(service.routes, gateway);
  registerTenantRoutes(service.routes, gateway);
  registerTenantForwards(service.routes, gateway, routing);
  registerAdminForwards(service.routes, routing);
  registerPaymentProcessorRoutes(service.routes, gateway, routing);
  registerOAuthRoutes(service.routes, gateway);
  registerOpenApiRoutes(service.routes);
  registerDocsRoutes(service.routes);
}

/**
 * The route table with each route's audience, probes included, as the service serves it
 * (`node dist/main.js --routes`): registration only captures the contexts, so none is needed.
 */
export function declaredRoutes(): DeclaredRoute[] {
  const routes = new RouteTable();
  registerRoutes({ routes }, {} as GatewayContext, {} as PartnerRouting);
  return [...PROBE_ROUTES, ...routes.routes()];
}
