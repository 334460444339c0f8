import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import type { GatewayContext } from '../usecases/context';
import { registerAdminRoutes } from './admin-routes';
import { registerDocsRoutes } from './docs-routes';
import { registerOAuthRoutes } from './oauth-routes';
import { registerOpenApiRoutes } from './openapi-routes';
import { registerPartnerRoutes, type PartnerRouting } from './partner/routes';
import { registerTenantForwards } from './tenant-forward-routes';
import { registerTenantRoutes } from './tenant-routes';

/** Routes of this service. /healthz, /readyz and /metrics come from the shared HTTP app. */
export function registerRoutes(
  service: ServiceContext<typeof settings>,
  gateway: GatewayContext,
  routing: PartnerRouting,
): void {
  registerPartnerRoutes(service.router, gateway, routing);
  registerAdminRoutes(service.router, gateway);
  registerTenantRoutes(service.router, gateway);
  registerTenantForwards(service.router, gateway, routing);
  registerOAuthRoutes(service.router, gateway);
  registerOpenApiRoutes(service.router);
  registerDocsRoutes(service.router);
}
