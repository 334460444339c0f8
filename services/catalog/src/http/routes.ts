import type { ServiceContext } from '@marketplace/runtime';
import type { settings } from '../config';

/** Routes of this service. /healthz, /readyz and /metrics come from the shared HTTP app. */
export function registerRoutes(_context: ServiceContext<typeof settings>): void {
  // Business endpoints arrive with their issues.
}
