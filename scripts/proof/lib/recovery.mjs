// The fault proof's recovery verdict: after each fault the service (or every service, after a stack
// component) is ready again within a stated bound; the requests refused meanwhile are counted per
// fault, and bounded in time and number; and no 5xx answer is excused outside its fault's window.
// Pure: it reads what the run recorded (lib/client.mjs's failures, faults.mjs's fault windows) and
// answers counts; lib/recovery.test.mjs holds its unit test.

/** After a kill -9 (or a SIGTERM) of a service, it answers /readyz with 200 again within this (issue 33). */
export const RECOVERY_BOUND_MS = 10_000;
/**
 * A service killed while one of three brokers is dead (and not yet fenced) waits for Kafka to move
 * that broker's partitions and groups: the controller fences a broker it has not heard from for
 * broker.session.timeout.ms (9 s by default), after electing itself when the dead one was the
 * controller. Its bound is RECOVERY_BOUND_MS plus this.
 */
export const BROKER_FENCE_MS = 12_000;
/** After a stack component is up again, every service is ready again within this. */
export const COMPONENT_RECOVERY_BOUND_MS = 30_000;
/**
 * A SIGTERM ends the process (exit 0) within this: well inside SHUTDOWN_TIMEOUT_MS (15 s), whose
 * HTTP part (12 s) a stop reaches only when a request hangs. webhook-sender's stop lets the
 * webhook attempts in flight finish (each bounded by its connect and response timeouts).
 */
export const SIGTERM_BOUND_MS = 10_000;
/**
 * A refusal this long after a fault's window closed still belongs to it: a request sent just
 * before the service was ready again, answered just after (the client's longest backoff is 2 s).
 */
export const REFUSAL_GRACE_MS = 3_000;
/**
 * The grace after a stack component's fault: every service may be ready again at once (readiness
 * does not wait for Kafka), while consumers rejoin their groups (up to the session timeout, 6 s)
 * and the copies catch up; meanwhile delivery-assignment answers 503 `delivery.copies_behind`
 * (with Retry-After), as documented. Measured in CI: the last such 503 came 6.1 s after every
 * service was ready following a broker restart.
 */
export const COMPONENT_REFUSAL_GRACE_MS = 12_000;
/**
 * At most this many refusals per second of a fault's window, per request per second of traffic:
 * the client retries a refused request after 200 ms, doubling up to 2 s, so one request sent into
 * an outage is refused about five times in its first second and less often after.
 */
export const REFUSALS_PER_REQUEST_SECOND = 5;

/**
 * A 500 (or any 5xx but 502, 503 and 504) is never excused, fault or not: an unexpected error.
 * 503 (with Retry-After) is the platform's "try again shortly"; 502 is the gateway's answer when an
 * owner died with the request in flight (the connection reset), 504 when it did not answer in time
 * (paused, or still starting): each is expected only while something is down, as a network error
 * is, and counts as a refusal of that fault; outside every fault's window, each fails the proof.
 */
const EXCUSABLE = new Set([502, 503, 504]);
const neverExcused = (failure) => failure.status !== undefined && !EXCUSABLE.has(failure.status);

/** What a failure is called in the counts: its status and code, or its network error. */
export function failureKey(failure) {
  return failure.error ?? `${failure.status}${failure.code ? ` ${failure.code}` : ''}`;
}

/**
 * The verdict.
 * - `faults`: [{ fault, startedAt, recoveredAt, readyAfterMs, boundMs }] in the order they
 *   happened: the window of a fault runs from its start (the kill, the SIGTERM) to when the
 *   service, or every service, was ready again; `readyAfterMs` is measured from the fault's start
 *   and must be at most `boundMs`.
 * - `failures`: [{ sentAt?, at, status?, code?, error?, method, path }] (`at`: answered): every 5xx answer and network error
 *   of the run (a 5xx is an answer with status >= 500; `error` a network error's code).
 * - `requestsPerSecond`: the traffic's rate, for the bound on refusals.
 * Answers per fault { fault, readyAfterMs, boundMs, slow, refused, refusedBy, refusalLimit,
 * tooManyRefused }, the failures excused by no fault (`unexcused`), the ones never excused
 * (`broken`), and `promises`: [what, count] pairs, each of which must be 0.
 */
export function recoveryVerdict({ faults, failures, requestsPerSecond, graceMs = REFUSAL_GRACE_MS }) {
  const perFault = faults.map((f) => ({
    fault: f.fault,
    readyAfterMs: f.readyAfterMs,
    boundMs: f.boundMs,
    // Never ready again (no number) is the slowest of all.
    slow: typeof f.readyAfterMs !== 'number' || f.readyAfterMs > f.boundMs,
    windowMs: Math.max(0, f.recoveredAt - f.startedAt),
    graceMs: f.graceMs ?? graceMs,
    refused: 0,
    refusedBy: {},
    refusalLimit: 0,
    tooManyRefused: false,
  }));
  const broken = [];
  const unexcused = [];
  for (const failure of failures) {
    if (neverExcused(failure)) {
      broken.push(failure);
      continue;
    }
    // A 502, 503, 504 or a network error: the latest fault whose window (and grace) its request overlaps.
    let owner = -1;
    for (let i = faults.length - 1; i >= 0; i--) {
      // A request belongs to a fault when its life (sent to answered) overlaps the fault's window:
      // a 504 comes an upstream timeout after its request was sent into the fault.
      // A fault during which nothing is away (a partner endpoint hanging, poison) excuses nothing.
      if (faults[i].excuses === false) continue;
      const end = faults[i].recoveredAt + (faults[i].graceMs ?? graceMs);
      if (failure.at >= faults[i].startedAt && (failure.sentAt ?? failure.at) <= end) {
        owner = i;
        break;
      }
    }
    if (owner < 0) {
      unexcused.push(failure);
      continue;
    }
    const f = perFault[owner];
    f.refused++;
    const key = failureKey(failure);
    f.refusedBy[key] = (f.refusedBy[key] ?? 0) + 1;
  }
  for (const f of perFault) {
    f.refusalLimit = Math.ceil(((f.windowMs + f.graceMs) / 1000) * requestsPerSecond * REFUSALS_PER_REQUEST_SECOND);
    f.tooManyRefused = f.refused > f.refusalLimit;
  }
  const outside = (status) => unexcused.filter((u) => u.status === status).length;
  const promises = [
    ['services not ready again within the bound after a fault', perFault.filter((f) => f.slow).length],
    ['faults with more refusals than their bound', perFault.filter((f) => f.tooManyRefused).length],
    ['answers 500', broken.filter((b) => b.status === 500).length],
    ['other 5xx answers (but 502, 503, 504)', broken.filter((b) => b.status !== 500).length],
    ['answers 502 outside a fault window', outside(502)],
    ['answers 503 outside a fault window', outside(503)],
    ['answers 504 outside a fault window', outside(504)],
    ['network errors outside a fault window', unexcused.filter((u) => u.status === undefined).length],
  ];
  return { faults: perFault, broken, unexcused, promises };
}
