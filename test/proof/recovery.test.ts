/**
 * The fault proof's recovery verdict (scripts/proof/lib/recovery.mjs): an ES module, which this
 * CommonJS test runs in a node child process, input and answer as JSON.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const MODULE = join(__dirname, '..', '..', 'scripts', 'proof', 'lib', 'recovery.mjs');

interface Failure {
  sentAt?: number;
  at: number;
  status?: number;
  code?: string;
  error?: string;
  method?: string;
  path?: string;
}
interface Fault {
  fault: string;
  startedAt: number;
  recoveredAt: number;
  readyAfterMs: number;
  boundMs: number;
  graceMs?: number;
}
interface Verdict {
  faults: {
    fault: string;
    slow: boolean;
    refused: number;
    refusedBy: Record<string, number>;
    refusalLimit: number;
    tooManyRefused: boolean;
  }[];
  promises: [string, number][];
}

function verdict(input: { faults: Fault[]; failures: Failure[]; requestsPerSecond: number }): Verdict {
  const script = `import { recoveryVerdict } from ${JSON.stringify(MODULE)};
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => process.stdout.write(JSON.stringify(recoveryVerdict(JSON.parse(text)))));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.status !== 0) throw new Error(`recovery.mjs failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Verdict;
}

const broken = (v: Verdict) => Object.fromEntries(v.promises.filter(([, count]) => count > 0));

/** A kill -9 at 10 s whose service was ready again `readyAfterMs` later. */
const kill = (readyAfterMs: number): Fault => ({
  fault: 'kill -9 ordering-pricing',
  startedAt: 10_000,
  recoveredAt: 10_000 + readyAfterMs,
  readyAfterMs,
  boundMs: 10_000,
});
const unavailable = (at: number): Failure => ({ at, status: 503, code: 'upstream.unavailable' });

describe('the fault proof’s recovery verdict', () => {
  it('holds when the service is back within the bound and 503s stay inside the fault window', () => {
    const v = verdict({
      faults: [kill(6_000)],
      failures: [unavailable(10_500), unavailable(12_000), { at: 11_000, error: 'ECONNREFUSED' }, unavailable(17_500)],
      requestsPerSecond: 4,
    });
    expect(broken(v)).toEqual({});
    expect(v.faults).toEqual([
      expect.objectContaining({
        fault: 'kill -9 ordering-pricing',
        slow: false,
        refused: 4,
        refusedBy: { '503 upstream.unavailable': 3, ECONNREFUSED: 1 },
      }),
    ]);
  });

  it('fails a service that is not ready again within the bound (30 s, as before issue 33)', () => {
    expect(broken(verdict({ faults: [kill(30_300)], failures: [], requestsPerSecond: 4 }))).toEqual({
      'services not ready again within the bound after a fault': 1,
    });
  });

  it('fails a service that never came back', () => {
    const never = { ...kill(0), recoveredAt: 10_000, readyAfterMs: null as unknown as number };
    expect(broken(verdict({ faults: [never], failures: [], requestsPerSecond: 4 }))).toEqual({
      'services not ready again within the bound after a fault': 1,
    });
  });

  it('counts a 500 (and any 5xx but 502, 503, 504) whenever it comes, fault window or not', () => {
    const v = verdict({
      faults: [kill(5_000)],
      failures: [
        { at: 11_000, status: 500 },
        { at: 40_000, status: 500 },
        { at: 41_000, status: 501 },
      ],
      requestsPerSecond: 4,
    });
    expect(broken(v)).toEqual({ 'answers 500': 2, 'other 5xx answers (but 502, 503, 504)': 1 });
  });

  it('counts a 502 or 504 inside a fault window as its refusal, and outside every window as a failure', () => {
    const v = verdict({
      faults: [kill(5_000)],
      failures: [
        { at: 11_000, status: 502, code: 'upstream.bad_response' },
        { at: 12_000, status: 504, code: 'upstream.timeout' },
        { at: 40_000, status: 502, code: 'upstream.bad_response' },
        { at: 41_000, status: 504, code: 'upstream.timeout' },
      ],
      requestsPerSecond: 4,
    });
    expect(v.faults[0]).toMatchObject({ refused: 2 });
    expect(broken(v)).toEqual({ 'answers 502 outside a fault window': 1, 'answers 504 outside a fault window': 1 });
  });

  it('counts a 503 or a network error outside every fault window (past the grace)', () => {
    const v = verdict({
      faults: [kill(5_000)],
      failures: [unavailable(5_000), unavailable(18_001), { at: 30_000, error: 'ECONNRESET' }],
      requestsPerSecond: 4,
    });
    expect(broken(v)).toEqual({ 'answers 503 outside a fault window': 2, 'network errors outside a fault window': 1 });
  });

  it('bounds the refusals of a fault by its window and the traffic’s rate', () => {
    // A 5 s window plus 3 s of grace at 1 request/s: 8 s x 1 x 5 = at most 40 refusals.
    const failures = Array.from({ length: 41 }, (_, i) => unavailable(10_000 + i * 100));
    const v = verdict({ faults: [kill(5_000)], failures, requestsPerSecond: 1 });
    expect(v.faults[0]).toMatchObject({ refused: 41, refusalLimit: 40, tooManyRefused: true });
    expect(broken(v)).toEqual({ 'faults with more refusals than their bound': 1 });
    expect(broken(verdict({ faults: [kill(5_000)], failures: failures.slice(1), requestsPerSecond: 1 }))).toEqual({});
  });

  it('gives a fault its own grace when it has one (a stack component: consumers rejoin, copies catch up)', () => {
    const component = { ...kill(5_000), fault: 'kill -9 kafka', boundMs: 30_000, graceMs: 12_000 };
    const late = { ...unavailable(15_000 + 6_100), code: 'delivery.copies_behind' };
    expect(broken(verdict({ faults: [component], failures: [late], requestsPerSecond: 4 }))).toEqual({});
    // The same refusal after a service's kill -9 (grace 3 s) is outside its window.
    expect(broken(verdict({ faults: [kill(5_000)], failures: [late], requestsPerSecond: 4 }))).toEqual({
      'answers 503 outside a fault window': 1,
    });
  });

  it('gives a failure to the fault its request lived through: a 504 answered an upstream timeout after it was sent', () => {
    const timeout = (sentAt: number): Failure => ({
      sentAt,
      at: sentAt + 10_000,
      status: 504,
      code: 'upstream.timeout',
    });
    // kill(5_000): the window is 10 s to 15 s, plus 3 s of grace.
    const v = verdict({ faults: [kill(5_000)], failures: [timeout(12_000), timeout(18_500)], requestsPerSecond: 4 });
    expect(v.faults[0]).toMatchObject({ refused: 1 });
    expect(broken(v)).toEqual({ 'answers 504 outside a fault window': 1 });
  });

  it('gives a refusal to the latest fault whose window holds it', () => {
    const first = kill(5_000);
    const second = { ...kill(5_000), fault: 'kill -9 webhook-sender', startedAt: 16_000, recoveredAt: 21_000 };
    const v = verdict({
      faults: [first, second],
      failures: [unavailable(17_000), unavailable(12_000)],
      requestsPerSecond: 4,
    });
    expect(v.faults.map((f) => f.refused)).toEqual([1, 1]);
  });
});
