import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import type { ProviderContext } from '../usecases/context';
import { registerAdminRoutes } from './admin-routes';
import { registerCourierRoutes } from './courier-routes';
import { registerDriverRoutes } from './driver-routes';
import { guardRoutes } from './auth';
import { registerOperationsRoutes } from './operations-routes';
import { registerPlatformRoutes } from './platform-routes';
import { registerTrackingRoutes } from './tracking-routes';

/** Routes of this service. /healthz, /readyz and /metrics come from the shared HTTP app. */
export function registerRoutes(service: ServiceContext<typeof settings>, ctx: ProviderContext): void {
  service.useBeforeBody(guardRoutes(ctx, service.config.adminTokenSecret));
  registerAdminRoutes(service.router, ctx);
  registerOperationsRoutes(service.router, ctx);
  registerDriverRoutes(service.router, ctx);
  registerCourierRoutes(service.router, ctx);
  registerPlatformRoutes(service.router, ctx);
  registerTrackingRoutes(service.router, ctx);
}
