import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';
import type { DeliveryContext } from '../usecases/context';
import { registerPartnerRoutes } from './partner-routes';
import { registerTenantRoutes } from './tenant-routes';

/** Routes of this service. /healthz, /readyz and /metrics come from the shared HTTP app. */
export function registerRoutes(service: ServiceContext<typeof settings>, deliveries: DeliveryContext): void {
  registerPartnerRoutes(service.router, deliveries);
  registerTenantRoutes(service.router, deliveries);
}
