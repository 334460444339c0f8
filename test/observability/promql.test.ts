import { exportedTypes, headingAnchors, metricNamesIn, unknownMetrics } from './promql';

// The extraction dashboard.int.test.ts relies on: it must find every metric a query names (or an
// unknown one would slip through) and nothing else (or a function would count as a metric).
const scrape = [
  '# HELP http_request_duration_seconds x',
  '# TYPE http_request_duration_seconds histogram',
  '# TYPE events_consumed_total counter',
  '# TYPE service_ready gauge',
].join('\n');
const types = exportedTypes([scrape]);

describe('metricNamesIn', () => {
  it('leaves out functions, aggregations, matchers, grouping labels, ranges, numbers and variables', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (service, route, le) (rate(http_request_duration_seconds_bucket{service=~"$service",status=~"5.."}[5m])))',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(
      metricNamesIn(
        'sum by (group) (x_lag{group!~".+[.]attempts"}) > 100 and deriv(sum by (group) (x_lag)[15m:1m]) > 0 or on (a) group_left (b) y_total * 1e3',
      ).sort(),
    ).toEqual(['x_lag', 'y_total']);
    expect(metricNamesIn('changes(service_ready[15m]) >= 4')).toEqual(['service_ready']);
    expect(metricNamesIn('label_values(http_request_duration_seconds_count, service)')).toEqual([
      'http_request_duration_seconds_count',
    ]);
  });
});

describe('unknownMetrics', () => {
  it('accepts exported names and the _bucket, _count and _sum of a histogram', () => {
    expect(
      unknownMetrics(
        [
          'sum(rate(http_request_duration_seconds_count[5m]))',
          'rate(http_request_duration_seconds_sum[5m])',
          'increase(events_consumed_total{outcome="dead_lettered"}[15m])',
        ],
        types,
      ),
    ).toEqual([]);
  });

  it('names a metric no service exports, and a suffix on what is not a histogram', () => {
    expect(
      unknownMetrics(['sum(rate(no_such_metric_total[5m])) / sum(rate(events_consumed_total[5m]))'], types),
    ).toEqual([{ name: 'no_such_metric_total', expr: expect.any(String) }]);
    expect(unknownMetrics(['events_consumed_total_count', 'service_ready_bucket'], types).map((u) => u.name)).toEqual([
      'events_consumed_total_count',
      'service_ready_bucket',
    ]);
  });
});

describe('headingAnchors', () => {
  it('are GitHub anchors', () => {
    const anchors = headingAnchors('# Top\n### 5xx ratio\n## Alerts: what each one means\nnot # a heading');
    expect([...anchors]).toEqual(['top', '5xx-ratio', 'alerts-what-each-one-means']);
  });
});
