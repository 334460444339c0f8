import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AttemptMetrics } from '../usecases/context';

/**
 * Attempts by event type and verdict (delivered, retry, permanent) with the network error class,
 * their latency, and how deliveries end (delivered, failed, dead_lettered, cancelled): what an SRE
 * watches to see a partner endpoint failing or the dead letters growing.
 */
export function attemptMetrics(registry: Registry): AttemptMetrics {
  const attempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook attempts by event type, verdict and network error class (none when a response came).',
    labelNames: ['type', 'verdict', 'error_class'],
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
    help: 'Deliveries that ended, by final status.',
    labelNames: ['status'],
    registers: [registry],
  });
  return {
    attempted: (type, verdict, errorClass, seconds) => {
      attempts.inc({ type, verdict, error_class: errorClass ?? 'none' });
      latency.observe({ verdict }, seconds);
    },
    ended: (status) => ended.inc({ status }),
  };
}

/** Attempts read ahead and waiting in memory for their due time (retries not due yet). */
export function waitingAttemptsGauge(registry: Registry, count: () => number): void {
  new Gauge({
    name: 'webhook_attempts_waiting',
    help: 'Scheduled attempts read from the retry topics and waiting in memory for their due time.',
    registers: [registry],
    collect() {
      this.set(count());
    },
  });
}
