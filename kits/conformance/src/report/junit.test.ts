import type { Report, TestResult } from '../model';
import { toJunit } from './junit';
import { escapeXml } from './xml';

const test = (over: Partial<TestResult>): TestResult => ({
  id: 'SDP-A-01',
  capability: 'core',
  group: 'auth',
  title: 'a & b',
  spec: { section: 'Authentication' },
  status: 'pass',
  durationMs: 1500,
  evidence: { exchanges: [], callbacks: [], notes: [] },
  ...over,
});

const report = (tests: TestResult[]): Report =>
  ({
    provider: { name: 'p <"x">', baseUrl: 'https://p' },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:02.000Z',
    summary: { passed: 1, failed: 1, skipped: 1, total: 3 },
    tests,
  }) as Report;

describe('JUnit XML', () => {
  it('escapes markup and quotes, and replaces characters XML cannot hold', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0000\u001b\ud800`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;\ufffd\ufffd\ufffd',
    );
    expect(escapeXml('tab\tline\n ✓ 😀')).toBe('tab\tline\n ✓ 😀');
  });

  it('has one testsuite per capability, a testcase "<id> <title>" each, with failure and skipped elements', () => {
    const xml = toJunit(
      report([
        test({}),
        test({ id: 'SDP-A-02', status: 'fail', reason: 'got <302> & "Location"' }),
        test({
          id: 'SDP-S-01',
          capability: 'supportsPolling',
          group: 'status',
          status: 'skip',
          reason: 'capability supportsPolling not declared',
        }),
      ]),
    );
    expect(xml).toContain(
      '<testsuites name="sdp-conformance p &lt;&quot;x&quot;&gt;" tests="3" failures="1" errors="0" skipped="1" time="2.000">',
    );
    expect(xml).toContain('<testsuite name="core" tests="2" failures="1"');
    expect(xml).toContain('<testsuite name="supportsPolling" tests="1" failures="0" errors="0" skipped="1"');
    expect(xml).toContain('<testcase classname="sdp-conformance.core.auth" name="SDP-A-01 a &amp; b" time="1.500"/>');
    expect(xml).toContain('<failure message="got &lt;302&gt; &amp; &quot;Location&quot;" type="Authentication">');
    expect(xml).toContain('<skipped message="capability supportsPolling not declared"/>');
    expect(xml).not.toMatch(/<[^>]*&(?!amp;|lt;|gt;|quot;|apos;)/);
  });
});
