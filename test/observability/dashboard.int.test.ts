import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  freePort,
  repoRoot,
  startServiceProcesses,
  startServiceProcess,
  type ServiceProcess,
} from '@marketplace/testing';
import { SERVICES } from '../services/services';
import { alertRules, dashboardQueries, exportedTypes, headingAnchors, unknownMetrics } from './promql';

// deploy/observability against the services as they run: every metric a dashboard panel or an
// alert rule names is one a service exports at /metrics (read from the six processes, each on
// its own database), and every alert links to a heading of the operator's handbook.

let services: ServiceProcess[] = [];
let types: Map<string, string>;

beforeAll(async () => {
  services = await startServiceProcesses(
    SERVICES.map(async ([name]) =>
      startServiceProcess(name, await freePort(), { MONGO_DATABASE: `it_observability_${name.replace(/-/g, '_')}` }),
    ),
  );
  const scrapes = await Promise.all(services.map(async (s) => (await fetch(`${s.url}/metrics`)).text()));
  types = exportedTypes(scrapes);
}, 120_000);

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop().catch(() => undefined)));
});

describe('deploy/observability', () => {
  it('the services export what the new metrics are', () => {
    // A guard of the guard: were the scrapes empty, every query would fail anyway; were they
    // partial, this names what is missing.
    for (const name of [
      'kafka_consumer_lag_messages',
      'events_dead_lettered_total',
      'service_ready',
      'readiness_check_up',
      'webhook_attempts_total',
      'rate_limit_rejections_total',
      'idempotency_requests_total',
      'provider_deliveries_created_total',
      'provider_delivery_status_changes_total',
      'delivery_assignment_transitions_total',
    ])
      expect([name, types.has(name)]).toEqual([name, true]);
  });

  it('names in the dashboard only metrics the services export', () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(20);
    expect(unknownMetrics(queries, types)).toEqual([]);
  });

  it('names in the alert rules only metrics the services export', () => {
    const rules = alertRules();
    expect(rules.length).toBeGreaterThanOrEqual(6);
    expect(
      unknownMetrics(
        rules.map((r) => r.expr),
        types,
      ),
    ).toEqual([]);
  });

  it('links every alert to a heading of docs/operations.md, with a summary and a description', () => {
    const anchors = headingAnchors(readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8'));
    for (const rule of alertRules()) {
      const [path, anchor] = (rule.annotations?.runbook_url ?? '').split('#');
      expect({ alert: rule.alert, path, known: anchors.has(anchor ?? '') }).toEqual({
        alert: rule.alert,
        path: 'docs/operations.md',
        known: true,
      });
      expect(rule.annotations?.summary).toEqual(expect.any(String));
      expect(rule.annotations?.description).toEqual(expect.any(String));
    }
    const linked = new Set(alertRules().map((r) => r.annotations?.runbook_url?.split('#')[1]));
    for (const section of [
      'consumer-lag-growing',
      'dead-letters',
      'webhook-failure-ratio',
      '5xx-ratio',
      'readiness-flapping',
      'consumer-holds',
    ])
      expect([section, linked.has(section)]).toEqual([section, true]);
  });
});
