import { PROBE_ROUTES, RouteTable, type DeclaredRoute } from '@marketplace/http';
import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import type { ProviderContext } from '../usecases/context';
import { registerAdminRoutes } from './admin-routes';
import { registerCourierRoutes } from './courier-routes';
import { registerDriverRoutes } from './driver-routes';
import { audienceGuards } from './auth';
import { registerOperationsRoutes } from './operations-routes';
import { registerPlatformRoutes } from './platform-routes';
import { registerTrackingRoutes } from './tracking-routes';

/** Routes of this service. /healthz, /readyz and /metrics come from the shared HTTP app. */
export function registerRoutes(service: ServiceContext<typeof settings>, ctx: ProviderContext): void {
  const guards = audienceGuards(ctx, service.config.adminTokenSecret);
  service.routes
    .guard('admin', guards.admin)
    .guard('platform', guards.platform)
    .guard('courier', guards.courier)
    .guard('public', guards.public);
  declare(service.routes, ctx);
}

function declare(routes: RouteTable, ctx: ProviderContext): void {
  registerAdminRoutes(routes, ctx);
  registerOperationsRoutes(routes, ctx);
  registerDriverRoutes(routes, ctx);
  registerCourierRoutes(routes, ctx);
  registerPlatformRoutes(routes, ctx);
  registerTrackingRoutes(routes, ctx);
}

/**
 * The route table with each route's audience, probes included, as the service serves it
 * (`node dist/main.js --routes`): registration only captures the context, so none is needed.
 */
export function declaredRoutes(): DeclaredRoute[] {
  const routes = new RouteTable();
  declare(routes, {} as ProviderContext);
  return [...PROBE_ROUTES, ...routes.routes()];
}
