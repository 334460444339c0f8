import { CAPABILITIES, type Report, type TestResult } from '../model';
import { escapeXml } from './xml';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function testcase(test: TestResult): string {
  const open = `    <testcase classname="sdp-conformance.${escapeXml(test.capability)}.${escapeXml(test.group)}" name="${escapeXml(`${test.id} ${test.title}`)}" time="${seconds(test.durationMs)}"`;
  const reason = test.reason ?? '';
  const where = `${test.spec.section}${test.spec.rule ? `, rule ${test.spec.rule}` : ''}`;
  if (test.status === 'fail') {
    return `${open}>\n      <failure message="${escapeXml(reason)}" type="${escapeXml(where)}">${escapeXml(`${reason}\n(${where})`)}</failure>\n    </testcase>`;
  }
  if (test.status === 'skip') return `${open}>\n      <skipped message="${escapeXml(reason)}"/>\n    </testcase>`;
  return `${open}/>`;
}

/** The report as JUnit XML for CI: one testsuite per capability, one testcase per test. */
export function toJunit(report: Report): string {
  const suites = CAPABILITIES.map((capability) => report.tests.filter((test) => test.capability === capability))
    .filter((tests) => tests.length > 0)
    .map((tests) => {
      const time = tests.reduce((sum, test) => sum + test.durationMs, 0);
      const failures = tests.filter((test) => test.status === 'fail').length;
      const skipped = tests.filter((test) => test.status === 'skip').length;
      return [
        `  <testsuite name="${escapeXml(tests[0]!.capability)}" tests="${tests.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}" timestamp="${escapeXml(report.startedAt)}">`,
        ...tests.map(testcase),
        '  </testsuite>',
      ].join('\n');
    });
  const total = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sdp-conformance ${escapeXml(report.provider.name)}" tests="${report.summary.total}" failures="${report.summary.failed}" errors="0" skipped="${report.summary.skipped}" time="${seconds(Number.isFinite(total) ? total : 0)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
