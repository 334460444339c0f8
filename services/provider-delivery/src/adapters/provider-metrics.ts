import { Counter, type Registry } from 'prom-client';
import type { ProviderMetrics } from '../usecases/ports';
import { RATE_LIMIT_SCOPES, type RateLimitScope } from '../domain/rate-limit';

/**
 * Deliveries created (accepted, or rejected by a business rule), their status changes by the
 * status reached, and requests refused by a rate limit, by its scope (http/rate-limits.ts). No
 * label names an account, an address, a driver, a link or a delivery: their number is unbounded.
 */
export function providerMetrics(registry: Registry): ProviderMetrics & { rateLimited(scope: RateLimitScope): void } {
  const created = new Counter({
    name: 'provider_deliveries_created_total',
    help: 'New delivery requests (POST /v1/deliveries, replays excluded) by outcome: accepted, or rejected by a business rule.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const statusChanges = new Counter({
    name: 'provider_delivery_status_changes_total',
    help: 'Delivery status changes by the status reached (platform, courier, dispatcher or operator).',
    labelNames: ['status'],
    registers: [registry],
  });
  const rejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429 by a rate limit, by scope (gateway-auth: ip, installation, tenant_ip, tenant, admin_ip, admin; provider-delivery: account, platform_ip, admin_ip, admin, courier_ip, courier, public_ip, tracking; webhook-sender: admin_ip, admin).',
    labelNames: ['scope'],
    registers: [registry],
  });
  // Series from the start at 0, so that rate() and increase() see the first one.
  for (const outcome of ['accepted', 'rejected']) created.inc({ outcome }, 0);
  for (const scope of RATE_LIMIT_SCOPES) rejections.inc({ scope }, 0);
  return {
    deliveryCreated: (outcome) => created.inc({ outcome }),
    deliveryStatusChanged: (status) => statusChanges.inc({ status }),
    rateLimited: (scope) => rejections.inc({ scope }),
  };
}
