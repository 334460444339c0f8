import type { Declaration, Report, TestResult } from '../model';
import type { RunState } from '../context/run-state';
import { CallbackReceiver } from '../receiver/callback-receiver';
import { createRedactor, type Redactor } from '../redact';
import type { ConformanceTest } from '../test-api';
import { ALL_TESTS } from '../tests';
import { DEFAULT_TEST_TIMEOUT_MS, skipReason, testTimeoutMs } from './applicability';
import { buildReport, toResult } from './build-report';
import { runPool } from './pool';
import { QUIET_MAX_MS, QUIET_MS, waitForQuiet } from './quiet';
import { runTest, type TestOutcome } from './run-test';

export const DEFAULT_CONCURRENCY = 8;

export interface RunOptions {
  /** The provider's base URL (ends in /v1). */
  baseUrl: string;
  apiKey: string;
  /** The secret that signs the provider's callbacks. */
  webhookSecret: string;
  declaration: Declaration;
  /** The receiver's local port (0 or absent: a free one). */
  callbackPort?: number;
  /** The receiver's listen address (default 127.0.0.1). */
  callbackHost?: string;
  /** A public base URL forwarding to the receiver, for a provider elsewhere. */
  callbackBaseUrl?: string;
  /** How many main tests run at once (default 8). */
  concurrency?: number;
  /** Test ids to run; the others are skipped as "not selected". */
  only?: readonly string[];
  /** One line per test as it ends (already redacted), and the run's milestones. */
  log?: (line: string) => void;
  /** The tests (default: the kit's catalog, ALL_TESTS). */
  tests?: readonly ConformanceTest[];
  /** A test's time when it names none (default 60 s). */
  defaultTimeoutMs?: number;
  /** Before the after phase: the callback silence awaited, and the longest wait for it (3 s, 30 s). */
  quietMs?: number;
  quietMaxMs?: number;
}

const logLine = (result: TestResult): string =>
  `${result.status.toUpperCase()} ${result.id} ${result.title}${result.reason ? ` — ${result.reason}` : ''}`;

/** Runs the applicable tests against a provider and returns the (redacted, unsigned) report. */
export async function runConformance(options: RunOptions): Promise<Report> {
  const tests = options.tests ?? ALL_TESTS;
  const startedAt = new Date().toISOString();
  const receiver = await CallbackReceiver.start({
    port: options.callbackPort,
    host: options.callbackHost,
    publicBaseUrl: options.callbackBaseUrl,
  });
  const run: RunState = { ...options, receiver, exchanges: [], deliveries: [] };
  const redactor = (): Redactor => createRedactor([options.apiKey, options.webhookSecret, ...receiver.tokens()]);
  const log = (result: TestResult): void => options.log?.(logLine(result));
  const outcomes = new Map<string, TestOutcome | TestResult>();
  try {
    const { main, after } = plan(tests, options, outcomes, log);
    const execute = async (test: ConformanceTest): Promise<void> => {
      const outcome = await runTest(
        run,
        test,
        testTimeoutMs(test, options.declaration, options.defaultTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS),
      );
      outcomes.set(test.id, outcome);
      log(toResult(outcome, redactor()));
    };
    await runPool(main, options.concurrency ?? DEFAULT_CONCURRENCY, execute);
    if (after.length > 0) {
      options.log?.(
        `… waiting for the callbacks to settle (up to ${Math.round((options.quietMaxMs ?? QUIET_MAX_MS) / 1000)} s)`,
      );
      await waitForQuiet(receiver, options.quietMs ?? QUIET_MS, options.quietMaxMs ?? QUIET_MAX_MS);
      await runPool(after, options.concurrency ?? DEFAULT_CONCURRENCY, execute);
    }
  } finally {
    await receiver.close();
  }
  const finalRedactor = redactor();
  const results = tests.map((test) => {
    const outcome = outcomes.get(test.id)!;
    return 'test' in outcome ? toResult(outcome, finalRedactor) : outcome;
  });
  return buildReport({
    baseUrl: options.baseUrl,
    declaration: options.declaration,
    startedAt,
    finishedAt: new Date().toISOString(),
    tests: results,
    redactor: finalRedactor,
  });
}

/** Splits the tests into the main and after phases, recording the ones that do not run as skipped. */
function plan(
  tests: readonly ConformanceTest[],
  options: RunOptions,
  outcomes: Map<string, TestOutcome | TestResult>,
  log: (result: TestResult) => void,
): { main: ConformanceTest[]; after: ConformanceTest[] } {
  const main: ConformanceTest[] = [];
  const after: ConformanceTest[] = [];
  for (const test of tests) {
    const reason = skipReason(test, options.declaration, options.only);
    if (reason === undefined) (test.phase === 'after' ? after : main).push(test);
    else {
      const { id, capability, group, title, spec } = test;
      const skipped: TestResult = {
        id,
        capability,
        group,
        title,
        spec,
        status: 'skip',
        reason,
        durationMs: 0,
        evidence: { exchanges: [], callbacks: [], notes: [] },
      };
      outcomes.set(test.id, skipped);
      log(skipped);
    }
  }
  return { main, after };
}
