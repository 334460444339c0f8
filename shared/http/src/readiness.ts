/**
 * A dependency the service needs before it can serve (Kafka, MongoDB, Redis, the schema registry),
 * or, with `degradesOnly`, something that makes the service degraded without stopping it from
 * serving (a consumer holding events back): that check reports `degraded` with its reason and
 * leaves the service ready.
 */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  check(): Promise<unknown>;
  degradesOnly?: boolean;
}

export type CheckState = 'up' | 'down' | 'degraded';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckState>;
  /**
   * Why each check that is not up failed. A degraded check's reason is our own words and goes in
   * the body; a down check's may be a driver's message and goes to the service's log only.
   */
  failures: Record<string, string>;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs every check at once, each bounded by `timeoutMs`, so a dead dependency cannot hang a probe. */
export async function runReadinessChecks(checks: ReadinessCheck[], timeoutMs: number): Promise<ReadinessReport> {
  const results = await Promise.allSettled(checks.map((c) => withTimeout(c.check(), timeoutMs, c.name)));
  const report: ReadinessReport = { ready: true, checks: {}, failures: {} };
  results.forEach((result, i) => {
    const check = checks[i]!;
    if (result.status === 'fulfilled') {
      report.checks[check.name] = 'up';
      return;
    }
    report.failures[check.name] = (result.reason as Error)?.message ?? String(result.reason);
    if (check.degradesOnly) {
      report.checks[check.name] = 'degraded';
    } else {
      report.checks[check.name] = 'down';
      report.ready = false;
    }
  });
  return report;
}

/**
 * The check with at most one run in flight: a probe that comes while the last run is still going
 * (it timed out for the caller, but the ping goes on) waits for that run instead of starting
 * another. On a slow machine probes would otherwise pile up pings that each add to the load.
 */
export function singleFlight(check: ReadinessCheck): ReadinessCheck {
  let running: Promise<unknown> | undefined;
  return {
    ...check,
    check: () =>
      (running ??= (async () => {
        try {
          return await check.check();
        } finally {
          running = undefined;
        }
      })()),
  };
}
