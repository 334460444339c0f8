import { CAPABILITIES, type Capability, type Declaration, type Report, type TestResult } from '../model';
import { redactCallback, redactExchange, type Redactor } from '../redact';
import { CONTRACT } from '../spec';
import { NOT_SELECTED } from './applicability';
import { kitVersion } from './kit-version';
import type { TestOutcome } from './run-test';

/** A test's result as reported: its outcome with its evidence redacted. */
export function toResult(outcome: TestOutcome, redactor: Redactor): TestResult {
  const { test } = outcome;
  const result: TestResult = {
    id: test.id,
    capability: test.capability,
    group: test.group,
    title: test.title,
    spec: test.spec,
    status: outcome.status,
    durationMs: outcome.durationMs,
    evidence: {
      exchanges: outcome.evidence.exchanges.map((exchange) => redactExchange(exchange, redactor)),
      callbacks: outcome.evidence.boxes
        .flatMap((box) => box.received())
        .map((callback) => redactCallback(callback, redactor)),
      notes: outcome.evidence.notes.map((note) => redactor.text(note)),
    },
  };
  if (outcome.reason !== undefined) result.reason = redactor.text(outcome.reason);
  return result;
}

/** Per capability: certified when declared, nothing of it or of the core failed, and nothing was left unselected. */
export function capabilitySummary(tests: readonly TestResult[], declaration: Declaration): Report['capabilities'] {
  const of = (capability: Capability): TestResult[] => tests.filter((test) => test.capability === capability);
  const clean = (results: TestResult[]): boolean =>
    results.every((test) => test.status !== 'fail' && test.reason !== NOT_SELECTED) &&
    results.some((test) => test.status === 'pass');
  const coreClean = clean(of('core'));
  return CAPABILITIES.map((capability) => {
    const results = of(capability);
    const declared = capability === 'core' || declaration.capabilities[capability] === true;
    return {
      capability,
      declared,
      passed: results.filter((test) => test.status === 'pass').length,
      failed: results.filter((test) => test.status === 'fail').length,
      skipped: results.filter((test) => test.status === 'skip').length,
      certified: declared && coreClean && clean(results),
    };
  });
}

export function buildReport(input: {
  baseUrl: string;
  declaration: Declaration;
  startedAt: string;
  finishedAt: string;
  tests: TestResult[];
  redactor: Redactor;
}): Report {
  const { tests, declaration } = input;
  return {
    kit: { name: 'sdp-conformance', version: kitVersion() },
    contract: { version: CONTRACT.version, revision: CONTRACT.revision },
    provider: { baseUrl: input.redactor.text(input.baseUrl), name: declaration.provider },
    declaration,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    summary: {
      passed: tests.filter((test) => test.status === 'pass').length,
      failed: tests.filter((test) => test.status === 'fail').length,
      skipped: tests.filter((test) => test.status === 'skip').length,
      total: tests.length,
    },
    capabilities: capabilitySummary(tests, declaration),
    tests,
  };
}
