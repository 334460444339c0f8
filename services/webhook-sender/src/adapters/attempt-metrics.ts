import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AttemptMetrics } from '../usecases/ports';
import { attemptTierOf } from '../domain/retry-tiers';

/**
 * Attempts by kind (partner-webhook, provider-callback), event type, retry tier (first, retry-1 …
 * retry-7) and verdict (delivered, retry, permanent) with the network error class, their latency, and how deliveries end (delivered,
 * failed, dead_lettered, cancelled): what an SRE watches to see endpoints failing or the dead
 * letters growing. No label names a receiver, an owner or a URL (their number is unbounded, and a
 * provider callback's URL holds a token); the kind keeps a provider's `delivery.cancelled` apart
 * from the partner webhook of that name.
 */
export function attemptMetrics(registry: Registry): AttemptMetrics {
  const attempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook attempts by delivery kind, event type, verdict, network error class (none when a response came) and retry tier (first, retry-1 to retry-7).',
    labelNames: ['kind', 'type', 'verdict', 'error_class', 'tier'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'Time from sending a webhook attempt to its (limited) response or failure.',
    labelNames: ['verdict'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const ended = new Counter({
    name: 'webhook_deliveries_ended_total',
    help: 'Deliveries that ended, by delivery kind and final status.',
    labelNames: ['kind', 'status'],
    registers: [registry],
  });
  return {
    attempted: (kind, type, attempt, verdict, errorClass, seconds) => {
      attempts.inc({ kind, type, verdict, error_class: errorClass ?? 'none', tier: attemptTierOf(attempt) });
      latency.observe({ verdict }, seconds);
    },
    ended: (kind, status) => ended.inc({ kind, status }),
  };
}

/** What the attempt queue holds: the counts it reports. */
export interface QueueCounts {
  waitingCount: number;
  queuedCount: number;
  openCircuits: number;
}

/**
 * Attempts read ahead and waiting in memory for their due time (retries not due yet), attempts due
 * and not started (queued for a slot or parked behind an open circuit), and open circuits.
 */
export function queueGauges(registry: Registry, queue: QueueCounts): void {
  new Gauge({
    name: 'webhook_attempts_waiting',
    help: 'Scheduled attempts read from the retry topics and waiting in memory for their due time.',
    registers: [registry],
    collect() {
      this.set(queue.waitingCount);
    },
  });
  new Gauge({
    name: 'webhook_attempts_queued',
    help: 'Attempts due and not started: waiting for a slot, or parked while their endpoint circuit is open.',
    registers: [registry],
    collect() {
      this.set(queue.queuedCount);
    },
  });
  new Gauge({
    name: 'webhook_endpoint_circuits_open',
    help: 'Endpoint owners whose circuit is open (no answer to their last attempts): their attempts are parked but for a probe.',
    registers: [registry],
    collect() {
      this.set(queue.openCircuits);
    },
  });
}
