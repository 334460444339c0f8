import { type Report, runConformance, type TestResult } from '../src';
import { DEFECT_CATCHERS, DEFECTS, type Defect, startFaultyProvider } from './support/faulty-provider';

/**
 * The kit proves it can fail: against the clean faulty provider every applicable test passes; with
 * one defect switched on, exactly the tests named for it fail and every other test ends as it did
 * in the clean run. All runs go at once (each its own provider and receiver), so the file takes
 * about as long as one run.
 */

// A slow-enough courier that a 300 ms status poll catches each status; a lifecycle of about 2 s.
const STEP_MS = 200;
const RUN_TIMEOUT_MS = 170_000;

async function runAgainst(defects: readonly Defect[]): Promise<Report> {
  const provider = await startFaultyProvider({ defects, stepMs: STEP_MS, retryBaseMs: 300 });
  try {
    return await runConformance({
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey,
      webhookSecret: provider.webhookSecret,
      declaration: provider.declaration,
      quietMs: 1_500,
    });
  } finally {
    await provider.close();
  }
}

const describeResult = (result: TestResult): string =>
  `${result.id} ${result.status}${result.reason ? ` — ${result.reason}` : ''}`;

let clean: Report;
const withDefect = new Map<Defect, Report>();

beforeAll(async () => {
  const [cleanReport, ...defectReports] = await Promise.all([
    runAgainst([]),
    ...DEFECTS.map((defect) => runAgainst([defect])),
  ]);
  clean = cleanReport!;
  DEFECTS.forEach((defect, i) => withDefect.set(defect, defectReports[i]!));
}, RUN_TIMEOUT_MS);

it('passes every applicable test against the clean provider', () => {
  const failures = clean.tests.filter((t) => t.status === 'fail').map(describeResult);
  expect(failures).toEqual([]);
  // Every capability is declared and area.outside is given: only SDP-CREATE-07 (for providers without scheduled delivery) skips.
  const skipped = clean.tests.filter((t) => t.status === 'skip').map(describeResult);
  expect(skipped.filter((line) => !line.startsWith('SDP-CREATE-07 '))).toEqual([]);
});

describe.each(DEFECTS)('with the defect %s', (defect) => {
  it(`fails exactly ${DEFECT_CATCHERS[defect].join(' and ')}, and every other test ends as in the clean run`, () => {
    const report = withDefect.get(defect)!;
    expect(report.tests.map((t) => t.id)).toEqual(clean.tests.map((t) => t.id));
    const catchers = DEFECT_CATCHERS[defect];
    const cleanStatus = new Map(clean.tests.map((t) => [t.id, t.status]));
    const problems = report.tests.flatMap((t) => {
      if (catchers.includes(t.id)) return t.status === 'fail' ? [] : [`${describeResult(t)}: expected to fail`];
      return t.status === cleanStatus.get(t.id)
        ? []
        : [`${describeResult(t)}: was ${cleanStatus.get(t.id)} in the clean run`];
    });
    expect(problems).toEqual([]);
  });
});
