import { Gauge, type Registry } from 'prom-client';
import type { ReadinessReport } from './readiness';

/**
 * Readiness as metrics, so that flapping can be alerted from the services themselves
 * (`changes(service_ready[15m])`): `service_ready` (1 ready, 0 unready or stopping) and
 * `readiness_check_up{check}` (1 up, 0 down or degraded). Set by every readiness evaluation (the
 * probes'); a scrape that finds them older than `maxAgeMs` (no probe comes: a local run, a probe
 * misconfigured) evaluates once itself, bounded like a probe.
 */
export class ReadinessMetrics {
  private recordedAt = 0;
  private evaluating: Promise<void> | undefined;
  private readonly ready: Gauge;
  private readonly checks: Gauge;

  constructor(
    registry: Registry,
    private readonly evaluate: () => Promise<void>,
    private readonly maxAgeMs = 30_000,
  ) {
    const refresh = () => this.refreshIfStale();
    this.ready = new Gauge({
      name: 'service_ready',
      help: 'Whether the service is ready (1) or unready or stopping (0), as its last readiness evaluation said.',
      registers: [registry],
      collect: refresh,
    });
    this.checks = new Gauge({
      name: 'readiness_check_up',
      help: 'Each readiness check: 1 up, 0 down (or degraded, for a check that only degrades), as last evaluated.',
      labelNames: ['check'],
      registers: [registry],
      collect: refresh,
    });
  }

  record(report: ReadinessReport, ready: boolean): void {
    this.recordedAt = Date.now();
    this.ready.set(ready ? 1 : 0);
    for (const [check, state] of Object.entries(report.checks)) this.checks.set({ check }, state === 'up' ? 1 : 0);
  }

  private async refreshIfStale(): Promise<void> {
    if (Date.now() - this.recordedAt <= this.maxAgeMs) return;
    // Both gauges are collected at once: one evaluation serves them.
    await (this.evaluating ??= this.evaluate().finally(() => (this.evaluating = undefined)));
  }
}
