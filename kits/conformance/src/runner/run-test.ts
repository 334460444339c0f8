import { performance } from 'node:perf_hooks';
import type { TestStatus } from '../model';
import { isTestFailure, isTestSkip } from '../context/outcomes';
import type { RunState } from '../context/run-state';
import { createTestSession, type TestEvidence } from '../context/test-context';
import type { ConformanceTest } from '../test-api';

export interface TestOutcome {
  test: ConformanceTest;
  status: TestStatus;
  reason?: string;
  durationMs: number;
  evidence: TestEvidence;
}

function outcomeOf(error: unknown): { status: TestStatus; reason: string } {
  if (isTestSkip(error)) return { status: 'skip', reason: error.message };
  if (isTestFailure(error)) return { status: 'fail', reason: error.message };
  // A bug in the test or an answer it did not foresee: the test fails, the run goes on.
  const reason =
    error instanceof Error ? `unexpected ${error.name}: ${error.message}` : `unexpected error: ${String(error)}`;
  return { status: 'fail', reason };
}

/** Runs one test with its own context, failing it when it throws or outlives `timeoutMs`. */
export async function runTest(run: RunState, test: ConformanceTest, timeoutMs: number): Promise<TestOutcome> {
  const session = createTestSession(run, test);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<{ status: TestStatus; reason: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'fail', reason: `timed out after ${Math.round(timeoutMs / 1000)} s` }),
      timeoutMs,
    );
  });
  const ran = Promise.resolve()
    .then(() => test.run(session.context))
    .then(
      () => ({ status: 'pass' as TestStatus }),
      (error: unknown) => outcomeOf(error),
    );
  const outcome: { status: TestStatus; reason?: string } = await Promise.race([ran, timedOut]);
  clearTimeout(timer);
  session.abort();
  return { test, ...outcome, durationMs: Math.round(performance.now() - started), evidence: session.evidence };
}
