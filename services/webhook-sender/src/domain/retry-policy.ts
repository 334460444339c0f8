/**
 * Retry schedule and attempt classification. The policy is a value, not constants, because the
 * delivery provider's callbacks will reuse the engine with their own schedule.
 */
export interface RetryPolicy {
  baseMs: number; // delay after the first failed attempt
  multiplier: number; // growth per further attempt
  capMs: number; // largest delay, applied before jitter
  maxAttempts: number; // attempts in all, the first included; after the last one: dead letter
  jitterRatio: number; // ± fraction of the (capped) delay, spreading retries of one outage apart
}

const MINUTE_MS = 60_000;

/** Partner webhooks: 2, 6, 18, 54, 162, 486, then 720 minutes (12 h cap); 8 attempts; ±20 %. */
export const PARTNER_WEBHOOK_POLICY: RetryPolicy = Object.freeze({
  baseMs: 2 * MINUTE_MS,
  multiplier: 3,
  capMs: 12 * 60 * MINUTE_MS,
  maxAttempts: 8,
  jitterRatio: 0.2,
});

/** Delay before attempt `attemptNumber + 1` after attempt `attemptNumber` failed (1-based), before jitter; undefined when no attempt follows. */
export function nominalDelayMs(policy: RetryPolicy, attemptNumber: number): number | undefined {
  // A bad attempt number is a caller bug; silently answering "no retry" would dead-letter events.
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be an integer >= 1, got ${attemptNumber}`);
  }
  if (attemptNumber >= policy.maxAttempts) return undefined;
  return Math.min(policy.baseMs * policy.multiplier ** (attemptNumber - 1), policy.capMs);
}

/** The same with jitter: nominal * (1 + jitterRatio * (2 * random() - 1)), rounded to whole ms; `random` injectable (defaults to Math.random). */
export function retryDelayMs(
  policy: RetryPolicy,
  attemptNumber: number,
  random: () => number = Math.random,
): number | undefined {
  const nominal = nominalDelayMs(policy, attemptNumber);
  if (nominal === undefined) return undefined;
  // Jitter after the cap, so capped retries of one outage still spread over ±jitterRatio.
  return Math.round(nominal * (1 + policy.jitterRatio * (2 * random() - 1)));
}

/** Scales a policy's durations (for tests and demos): every delay divided by `factor`. */
export function scaledPolicy(policy: RetryPolicy, factor: number): RetryPolicy {
  if (!Number.isFinite(factor) || factor <= 0) throw new RangeError(`factor must be a positive number, got ${factor}`);
  // min(base·m^k, cap) / f = min(base/f · m^k, cap/f): scaling base and cap scales every delay.
  return { ...policy, baseMs: policy.baseMs / factor, capMs: policy.capMs / factor };
}

export type AttemptResult =
  | { kind: 'response'; status: number }
  | { kind: 'network'; errorClass: 'timeout' | 'connect' | 'dns' | 'refused_address' | 'tls' | 'reset' | 'other' };

export type AttemptVerdict = 'delivered' | 'retry' | 'permanent';

/**
 * 2xx delivered; 5xx, 408, 429 retry (the receiver may recover); any other status permanent, 3xx
 * included since redirects are not followed. Network errors retry, except `refused_address`: the URL
 * resolved to a forbidden address, and retrying would only knock on it again.
 */
export function verdictOf(result: AttemptResult): AttemptVerdict {
  if (result.kind === 'response') {
    const { status } = result;
    if (status >= 200 && status <= 299) return 'delivered';
    if ((status >= 500 && status <= 599) || status === 408 || status === 429) return 'retry';
    return 'permanent';
  }
  switch (result.errorClass) {
    case 'refused_address':
      return 'permanent';
    case 'timeout':
    case 'connect':
    case 'dns':
    case 'tls':
    case 'reset':
    case 'other':
      return 'retry';
    default: {
      // A new error class must be classified here on purpose: this fails to compile until it is.
      const unclassified: never = result.errorClass;
      throw new Error(`unclassified network error: ${String(unclassified)}`);
    }
  }
}
