import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process: default Node.js metrics plus HTTP request duration by route. */
export function createMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, matched route and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const httpErrors = new Counter({
    name: 'http_errors_total',
    help: 'HTTP error responses by stable error code.',
    labelNames: ['status', 'code'],
    registers: [registry],
  });
  return { registry, httpDuration, httpErrors };
}

export type Metrics = ReturnType<typeof createMetrics>;
