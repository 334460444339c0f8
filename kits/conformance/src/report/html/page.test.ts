import type { Report } from '../../model';
import { toHtml } from './page';

const exchange = (status: number) => ({
  method: 'GET',
  url: 'https://p/v1/deliveries/x/status',
  requestHeaders: { Authorization: '[redacted]' },
  requestBody: null,
  status,
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: '{"status":"<script>alert(1)</script>"}',
  responseBytes: 40,
  startedAt: 't',
  durationMs: 5,
});

const report = {
  kit: { name: 'sdp-conformance', version: '1.0.0' },
  contract: { version: '1.1.0', revision: '2026-09-19' },
  provider: { baseUrl: 'https://p/v1', name: 'P <b>' },
  declaration: {},
  startedAt: 't0',
  finishedAt: 't1',
  summary: { passed: 0, failed: 1, skipped: 0, total: 1 },
  capabilities: [{ capability: 'supportsPolling', declared: true, passed: 0, failed: 1, skipped: 0, certified: false }],
  tests: [
    {
      id: 'SDP-STATUS-04',
      capability: 'supportsPolling',
      group: 'status',
      title: 'polling <to> the end',
      spec: { section: 'Status and tracking (GET)', rule: '1' },
      status: 'fail',
      reason: 'saw "<img src=x>"',
      durationMs: 10,
      evidence: { exchanges: [exchange(200), exchange(200), exchange(404)], callbacks: [], notes: ['a <note>'] },
    },
  ],
} as unknown as Report;

describe('the HTML report', () => {
  const html = toHtml(report, { specUrl: 'https://example.com/contract.md' });

  it('escapes everything it shows and runs no script', () => {
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('P &lt;b&gt;');
  });

  it('shows the verdict, a badge per test, the section link and folded evidence', () => {
    expect(html).toContain('FAILED: 1 test failed');
    expect(html).toContain('<span class="badge fail">fail</span>');
    expect(html).toContain('href="https://example.com/contract.md#status-and-tracking-get"');
    expect(html).toContain('(and 1 more identical answer)');
    expect(html).toContain('evidence: 3 exchanges, 0 callbacks');
    expect(html.match(/https?:\/\//g)!.every(Boolean)).toBe(true);
    expect(html).not.toMatch(/<link|<script|src="http/);
  });
});
