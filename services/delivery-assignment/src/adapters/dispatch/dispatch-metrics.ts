import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DispatchMetrics } from '../../usecases/ports';

/** The platform's dispatch in Prometheus: outcomes only (no owner, URL or token is a label). */
export function dispatchMetrics(registry: Registry): DispatchMetrics {
  const creates = new Counter({
    name: 'provider_dispatch_creates_total',
    help: 'Create requests to provider connections, by outcome (accepted, rejected, retried, failed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const callbacks = new Counter({
    name: 'provider_callbacks_total',
    help: "Providers' callbacks, by outcome (applied, duplicate, stale, signature_failed, unknown_token, unknown_status, invalid, mismatch)",
    labelNames: ['outcome'],
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'provider_callback_lag_seconds',
    help: "From a callback's event time to its arrival",
    buckets: [0.1, 0.5, 1, 2, 5, 15, 60, 300],
    registers: [registry],
  });
  const polls = new Counter({
    name: 'provider_dispatch_polls_total',
    help: 'Status reads of live deliveries whose callbacks went quiet, by outcome (applied, unchanged, failed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const cancels = new Counter({
    name: 'provider_dispatch_cancels_total',
    help: 'Cancels sent to providers, by outcome (confirmed, refused, failed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    created: (outcome) => creates.inc({ outcome }),
    callback: (outcome) => callbacks.inc({ outcome }),
    callbackLag: (seconds) => lag.observe(Math.max(0, seconds)),
    polled: (outcome) => polls.inc({ outcome }),
    cancelSent: (outcome) => cancels.inc({ outcome }),
  };
}

/**
 * A delivery is never left silently stale: every 10 s, how many dispatches are open and how old
 * the oldest one's last word from its provider is (its creation, before any), as gauges.
 */
export function watchStateAges(
  registry: Registry,
  dispatches: { openStateTimes(): Promise<Array<{ lastHeardAt: Date | null; createdAt: Date }>> },
  log: { warn(fields: object, message: string): void },
  intervalMs = 10_000,
): { stop(): void } {
  const oldest = new Gauge({
    name: 'provider_dispatch_oldest_state_seconds',
    help: 'Of the open dispatches to provider connections, the age of the oldest last word from the provider',
    registers: [registry],
  });
  const open = new Gauge({
    name: 'provider_dispatches_open',
    help: 'Dispatches to provider connections whose delivery may still change',
    registers: [registry],
  });
  const read = async () => {
    try {
      const times = await dispatches.openStateTimes();
      const now = Date.now();
      open.set(times.length);
      oldest.set(times.reduce((max, t) => Math.max(max, (now - (t.lastHeardAt ?? t.createdAt).getTime()) / 1000), 0));
    } catch (error) {
      log.warn({ err: error }, 'reading the open dispatches for the state-age gauge failed');
    }
  };
  void read();
  const timer = setInterval(() => void read(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
