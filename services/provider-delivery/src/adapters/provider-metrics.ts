import { Counter, type Registry } from 'prom-client';
import type { ProviderMetrics } from '../usecases/context';

/**
 * Deliveries created (accepted, or rejected by a business rule), their status changes by the
 * status reached, and requests refused by the per-account rate limit. No label names an account
 * or a delivery: their number is unbounded.
 */
export function providerMetrics(registry: Registry): ProviderMetrics & { rateLimited(): void } {
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
    help: 'Requests refused with 429 by a rate limit, by scope (gateway-auth: ip, installation; provider-delivery: account).',
    labelNames: ['scope'],
    registers: [registry],
  });
  // Series from the start at 0, so that rate() and increase() see the first one.
  for (const outcome of ['accepted', 'rejected']) created.inc({ outcome }, 0);
  rejections.inc({ scope: 'account' }, 0);
  return {
    deliveryCreated: (outcome) => created.inc({ outcome }),
    deliveryStatusChanged: (status) => statusChanges.inc({ status }),
    rateLimited: () => rejections.inc({ scope: 'account' }),
  };
}
