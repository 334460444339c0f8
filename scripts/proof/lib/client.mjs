// The proof's HTTP client: one request, or one request repeated with the same Idempotency-Key until
// it is answered for good, as a careful partner or platform would retry. It keeps what every
// request went through: in flight (for the SIGTERM checks), answers by status, network errors by
// code, 500s (never expected, whatever the fault), and every 5xx and network error with its time
// (for the recovery verdict).

const REQUEST_TIMEOUT_MS = 20_000;
const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 2_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A network error's code: ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, TimeoutError… */
function errorCode(error) {
  return error?.cause?.code ?? error?.code ?? error?.name ?? 'error';
}

/** Refused before anything was sent: nothing was cut off, the request never started. */
export const NEVER_STARTED = new Set(['ECONNREFUSED']);

export class Client {
  constructor() {
    this.inFlight = new Set();
    this.statuses = new Map();
    this.networkErrors = new Map();
    /** Every error answer's body (4xx, 5xx), for the secrets audit. */
    this.errorBodies = [];
    /** Answers 500 (an unexpected error): with their path and body, for the report. */
    this.internalErrors = [];
    /** Every 5xx answer and network error, with its time, for the recovery verdict (lib/recovery.mjs). */
    this.failures = [];
    /** Requests sent (each try counts), for the traffic's rate. */
    this.sent = 0;
    /** What is going on now (a fault's name), and per phase the answers by status and error code. */
    this.phase = 'start';
    this.byPhase = new Map();
    /** Per signalled service: requests in flight through it at its SIGTERM, and how they ended. */
    this.signalled = new Map();
  }

  /**
   * One request. `via` names the services it passes through (the gateway and the owner), for the
   * SIGTERM checks. Answers { status, text, body, headers } or { error: code }.
   */
  async send({ url, method = 'GET', headers = {}, body, via = [] }) {
    const entry = { via, signalledBy: [] };
    const sentAt = Date.now();
    this.inFlight.add(entry);
    this.sent++;
    let outcome;
    try {
      const res = await fetch(url, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      outcome = { status: res.status, text, body: parsed, headers: res.headers };
      this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 400 && this.errorBodies.length < 5_000)
        this.errorBodies.push({ status: res.status, body: text });
      if (res.status === 500)
        this.internalErrors.push({ method, path: new URL(url).pathname, body: text.slice(0, 300) });
    } catch (error) {
      outcome = { error: errorCode(error) };
      this.networkErrors.set(outcome.error, (this.networkErrors.get(outcome.error) ?? 0) + 1);
    } finally {
      this.inFlight.delete(entry);
    }
    if (outcome.error || outcome.status >= 500)
      this.failures.push({
        sentAt,
        at: Date.now(),
        phase: this.phase,
        method,
        path: new URL(url).pathname,
        ...(outcome.error ? { error: outcome.error } : { status: outcome.status, code: outcome.body?.code }),
      });
    const key =
      outcome.error ?? `${outcome.status}${outcome.status >= 400 && outcome.body?.code ? ` ${outcome.body.code}` : ''}`;
    const phase = this.byPhase.get(this.phase) ?? new Map();
    phase.set(key, (phase.get(key) ?? 0) + 1);
    this.byPhase.set(this.phase, phase);
    for (const name of entry.signalledBy) this.signalled.get(name).push({ method, url, ...summary(outcome) });
    return outcome;
  }

  /**
   * Repeats the request (same headers, same Idempotency-Key) after a network error, a 5xx, a 429 or
   * a 409 that says the first copy is still running, until another answer or the deadline.
   * `retryAlso(outcome)` adds answers worth another try (a copy not caught up yet, say).
   */
  async until(request, { deadlineMs = 120_000, retryAlso = () => false } = {}) {
    const deadline = Date.now() + deadlineMs;
    let delay = RETRY_FIRST_MS;
    let attempts = 0;
    for (;;) {
      attempts++;
      const outcome = await this.send(request);
      if (!worthRetrying(outcome) && !retryAlso(outcome)) return { ...outcome, attempts };
      if (Date.now() > deadline) return { ...outcome, attempts, gaveUp: true };
      const retryAfter = Number(outcome.headers?.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, RETRY_MAX_MS) : delay);
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    }
  }

  /** Marks every request now in flight through `name`; `signalReport(name)` says how they ended. */
  signal(name) {
    this.signalled.set(name, []);
    let count = 0;
    for (const entry of this.inFlight)
      if (entry.via.includes(name)) {
        entry.signalledBy.push(name);
        count++;
      }
    return count;
  }

  /**
   * How the requests in flight through `name` at its SIGTERM ended: finished (an answer below 500)
   * or cut off (a reset connection, a timeout, or a 5xx: a stopping service keeps serving for
   * SHUTDOWN_DRAIN_MS, so a request already on its way has no reason to meet a refusal, and the
   * gateway turns an owner's dropped or refused connection into 502 or 503).
   */
  signalReport(name) {
    const ended = this.signalled.get(name) ?? [];
    const cut = ended.filter((e) => e.cut);
    return { inFlight: ended.length, finished: ended.length - cut.length, cut };
  }
}

function worthRetrying(outcome) {
  if (outcome.error) return true;
  if (outcome.status >= 500 || outcome.status === 429) return true;
  return outcome.status === 409 && outcome.body?.code === 'idempotency.request_in_progress';
}

function summary(outcome) {
  if (outcome.error) return { error: outcome.error, cut: !NEVER_STARTED.has(outcome.error) };
  return {
    status: outcome.status,
    code: outcome.body?.code,
    cut: outcome.status >= 500,
  };
}
