import { Counter, type Registry } from 'prom-client';

/**
 * Requests the administrator API's rate limits refused, by scope (`admin_ip`, `admin`): the
 * counter gateway-auth and provider-delivery export under the same name. No label names an
 * address or an administrator.
 */
export function rateLimitMetrics(registry: Registry): (scope: 'admin_ip' | 'admin') => void {
  const rejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429 by a rate limit, by scope (gateway-auth: ip, installation, tenant_ip, tenant, admin_ip, admin; provider-delivery: account, platform_ip, admin_ip, admin, courier_ip, courier, public_ip, tracking; webhook-sender: admin_ip, admin).',
    labelNames: ['scope'],
    registers: [registry],
  });
  // Every series from the start at 0, so that rate() and increase() see the first one.
  for (const scope of ['admin_ip', 'admin'] as const) rejections.inc({ scope }, 0);
  return (scope) => rejections.inc({ scope });
}
