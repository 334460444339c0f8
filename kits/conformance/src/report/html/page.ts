import { CAPABILITIES, type Report, type TestResult } from '../../model';
import { renderEvidence } from './evidence';
import { esc, sectionAnchor } from './format';
import { STYLE } from './style';

export interface HtmlOptions {
  /** Where the contract is published: each test links to `<specUrl>#<section anchor>`. */
  specUrl?: string;
}

/** The contract document's file name: a relative link, for a reader who keeps the report beside it. */
export const DEFAULT_SPEC_URL = 'delivery-provider-contract-v1.md';

const passed = (report: Report): boolean => report.summary.failed === 0;

function header(report: Report): string {
  const { summary } = report;
  const verdict = passed(report)
    ? 'PASSED: every applicable test passed'
    : `FAILED: ${summary.failed} test${summary.failed === 1 ? '' : 's'} failed`;
  const signature = report.signature ? `Ed25519, public key ${esc(report.signature.publicKey)}` : 'not signed';
  return `<header>
<h1>Conformance report: ${esc(report.provider.name)}</h1>
<div class="muted">Standard Delivery Provider Contract ${esc(report.contract.version)} (revision ${esc(report.contract.revision)})</div>
<div class="verdict ${passed(report) ? 'pass' : 'fail'}">${esc(verdict)}</div>
<dl class="facts">
<dt>Provider</dt><dd>${esc(report.provider.name)}</dd>
<dt>Base URL</dt><dd>${esc(report.provider.baseUrl)}</dd>
<dt>Contract</dt><dd>${esc(report.contract.version)}, revision ${esc(report.contract.revision)}</dd>
<dt>Kit</dt><dd>${esc(report.kit.name)} ${esc(report.kit.version)}</dd>
<dt>Run</dt><dd>${esc(report.startedAt)} to ${esc(report.finishedAt)}</dd>
<dt>Tests</dt><dd>${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped, ${summary.total} in all</dd>
<dt>Signature</dt><dd>${signature}</dd>
</dl>
</header>`;
}

function capabilityTable(report: Report): string {
  const rows = report.capabilities.map(
    (entry) => `<tr><td><a href="#cap-${esc(entry.capability)}">${esc(entry.capability)}</a></td>
<td><span class="badge ${entry.declared ? 'yes' : 'no'}">${entry.declared ? 'yes' : 'no'}</span></td>
<td>${entry.passed}</td><td>${entry.failed}</td><td>${entry.skipped}</td>
<td><span class="badge ${entry.certified ? 'pass' : entry.declared ? 'fail' : 'skip'}">${entry.certified ? 'yes' : 'no'}</span></td></tr>`,
  );
  return `<h2>Capabilities</h2>
<table><thead><tr><th>Capability</th><th>Declared</th><th>Passed</th><th>Failed</th><th>Skipped</th><th>Certified</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
<details><summary>The provider's declaration</summary><pre>${esc(JSON.stringify(report.declaration, null, 2))}</pre></details>`;
}

function testRow(test: TestResult, specUrl: string): string {
  const where = `${test.spec.section}${test.spec.rule ? `, rule ${test.spec.rule}` : ''}`;
  const notes =
    test.evidence.notes.length > 0
      ? `<ul class="notes">${test.evidence.notes.map((note) => `<li>${esc(note)}</li>`).join('')}</ul>`
      : '';
  const evidence = renderEvidence(test);
  return `<tr class="${test.status}${evidence === '' ? '' : ' has-evidence'}" id="${esc(test.id)}">
<td class="id">${esc(test.id)}</td>
<td>${esc(test.title)}<div class="muted">${esc(test.group)}, ${test.durationMs} ms</div></td>
<td><span class="badge ${test.status}">${test.status}</span></td>
<td><a href="${esc(`${specUrl}#${sectionAnchor(test.spec.section)}`)}">${esc(where)}</a></td>
<td class="reason">${esc(test.reason ?? '')}${notes}</td>
</tr>${evidence === '' ? '' : `\n<tr class="evidence"><td></td><td colspan="4">${evidence}</td></tr>`}`;
}

function capabilitySection(report: Report, capability: string, specUrl: string): string {
  const tests = report.tests.filter((test) => test.capability === capability);
  if (tests.length === 0) return '';
  const count = (status: string): number => tests.filter((test) => test.status === status).length;
  return `<section id="cap-${esc(capability)}">
<h2>${esc(capability)}<small>${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped</small></h2>
<table><thead><tr><th>Test</th><th>What it checks</th><th>Result</th><th>Contract section</th><th>Reason and evidence</th></tr></thead>
<tbody>${tests.map((test) => testRow(test, specUrl)).join('\n')}</tbody></table>
</section>`;
}

/** The report as one self-contained page a person reads: inline style, no scripts, every value escaped. */
export function toHtml(report: Report, options: HtmlOptions = {}): string {
  const specUrl = options.specUrl ?? DEFAULT_SPEC_URL;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`Conformance report: ${report.provider.name} (${passed(report) ? 'passed' : 'failed'})`)}</title>
<style>${STYLE}</style>
</head>
<body>
${header(report)}
${capabilityTable(report)}
${CAPABILITIES.map((capability) => capabilitySection(report, capability, specUrl)).join('\n')}
<footer>Secrets (the API key, the webhook secret, callback tokens, Authorization and X-Platform-Signature values) are shown as [redacted]. report.json holds the same results${report.signature ? ' and is signed: check it with <code>sdp-conformance verify --report report.json --public-key KEY.pem</code>' : ''}.</footer>
</body>
</html>
`;
}
