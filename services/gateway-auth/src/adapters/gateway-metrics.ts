import { Counter, type Registry } from 'prom-client';
import { RATE_LIMIT_SCOPES } from '../domain/rate-limits';
import type { AuditMetrics, GatewayMetrics } from '../usecases/context';

/**
 * The edge's counters: requests refused by a rate limit, by scope (ip, installation, public_ip, tenant_ip,
 * tenant, admin_ip, admin), and idempotent requests by outcome (stored, not_stored, replayed,
 * conflict, in_progress). No label names an address, a tenant, an installation or a key: their
 * number is unbounded.
 */
export function gatewayMetrics(registry: Registry): GatewayMetrics {
  const rejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429 by a rate limit, by scope (gateway-auth: ip, installation, public_ip, tenant_ip, tenant, admin_ip, admin; provider-delivery: account, platform_ip, admin_ip, admin, courier_ip, courier, public_ip, tracking; webhook-sender: admin_ip, admin).',
    labelNames: ['scope'],
    registers: [registry],
  });
  const idempotency = new Counter({
    name: 'idempotency_requests_total',
    help: 'Partner API mutations with an Idempotency-Key, by outcome: stored (run, 2xx kept for replay), not_stored (run, an error: the key stays usable), replayed, conflict (key reused for another request), in_progress (the first request still running).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  // Every series from the start at 0, so that rate() and increase() see the first one.
  for (const scope of RATE_LIMIT_SCOPES) rejections.inc({ scope }, 0);
  for (const outcome of ['stored', 'not_stored', 'replayed', 'conflict', 'in_progress'])
    idempotency.inc({ outcome }, 0);
  return {
    rateLimited: (scope) => rejections.inc({ scope }),
    idempotency: (outcome) => idempotency.inc({ outcome }),
  };
}

/** The audit log's counter: events that could not be written (the answers went out regardless). */
export function auditMetrics(registry: Registry): AuditMetrics {
  const failures = new Counter({
    name: 'audit_write_failures_total',
    help: 'Administrator and tenant mutations whose audit event could not be written (the answer went out regardless).',
    registers: [registry],
  });
  failures.inc(0);
  return { writeFailed: () => failures.inc() };
}
