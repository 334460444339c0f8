import { Registry } from 'prom-client';
import { attemptMetrics } from './attempt-metrics';

// The retry tier label is bounded (first, retry-1 … retry-7, whatever the attempt number) and
// follows the tier topic an attempt is read from.
describe('webhook attempt metrics', () => {
  it('count attempts by kind, type, retry tier, verdict and error class, and deliveries by how they ended', async () => {
    const registry = new Registry();
    const metrics = attemptMetrics(registry);
    metrics.attempted('partner-webhook', 'orders.created', 1, 'retry', 'timeout', 10);
    metrics.attempted('partner-webhook', 'orders.created', 2, 'retry', null, 0.2);
    metrics.attempted('partner-webhook', 'orders.created', 8, 'retry', null, 0.2);
    metrics.attempted('provider-callback', 'delivery.cancelled', 12, 'delivered', null, 0.1);
    metrics.ended('partner-webhook', 'dead_lettered');

    const text = await registry.metrics();
    const attempts = (labels: string) =>
      new RegExp(`^webhook_attempts_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1];
    expect(
      attempts('kind="partner-webhook",type="orders.created",verdict="retry",error_class="timeout",tier="first"'),
    ).toBe('1');
    expect(
      attempts('kind="partner-webhook",type="orders.created",verdict="retry",error_class="none",tier="retry-1"'),
    ).toBe('1');
    expect(
      attempts('kind="partner-webhook",type="orders.created",verdict="retry",error_class="none",tier="retry-7"'),
    ).toBe('1');
    expect(
      attempts(
        'kind="provider-callback",type="delivery.cancelled",verdict="delivered",error_class="none",tier="retry-7"',
      ),
    ).toBe('1');
    const tiers = new Set([...text.matchAll(/tier="([^"]+)"/g)].map((m) => m[1]));
    expect([...tiers].sort()).toEqual(['first', 'retry-1', 'retry-7']);
    expect(text).toMatch(/^webhook_deliveries_ended_total\{kind="partner-webhook",status="dead_lettered"\} 1$/m);
    expect(text).toMatch(/^webhook_attempt_duration_seconds_count\{verdict="retry"\} 3$/m);
  });
});
