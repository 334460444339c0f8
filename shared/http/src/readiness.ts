/** A dependency the service needs before it can serve: Kafka, MongoDB, Redis, the schema registry. */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  check(): Promise<unknown>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'up' | 'down'>;
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
  const report: ReadinessReport = { ready: true, checks: {} };
  results.forEach((result, i) => {
    const up = result.status === 'fulfilled';
    report.checks[checks[i]!.name] = up ? 'up' : 'down';
    if (!up) report.ready = false;
  });
  return report;
}
