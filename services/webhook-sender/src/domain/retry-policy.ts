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
  /** When present, a Retry-After header on a retried answer can lengthen the next delay (`delayAfter`); absent, it is ignored. */
  retryAfter?: RetryAfterRule;
}

/**
 * How a policy honours Retry-After (RFC 9110 §10.2.3: delay-seconds or an HTTP date): on every
 * answer that is retried (408, 429, any 5xx: `verdictOf`), never on one that ends the delivery.
 */
export interface RetryAfterRule {
  capMs: number; // the longest wait a Retry-After can impose
  timeScale: number; // the header's wait is divided by it: 1 in production, set by scaledPolicy like every other delay
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

/**
 * Delivery-provider contract callbacks ("Events", rule 5: retry 408, 429 and 5xx with bounded
 * exponential backoff and jitter, at least 6 attempts over at least 15 minutes, honour Retry-After):
 * 30 s base, ×2, 10-minute cap, 8 attempts, ±20 % after the cap. Nominal delays 0.5, 1, 2, 4, 8,
 * 10, 10 minutes: 35.5 minutes from the first attempt to the last, 28.4 at −20 % jitter and 42.6 at
 * +20 %. A Retry-After (seconds or an HTTP date) on any retried answer, 408, 429 or 5xx, as rule 5
 * says "honor Retry-After" of them all, is a floor for the next delay, itself capped at 1 hour
 * (longer than the backoff cap, so a receiver's "come back in 30 minutes" is obeyed, yet 7 such
 * waits still end within 7 hours).
 */
export const PROVIDER_CALLBACK_POLICY: RetryPolicy = Object.freeze({
  baseMs: MINUTE_MS / 2,
  multiplier: 2,
  capMs: 10 * MINUTE_MS,
  maxAttempts: 8,
  jitterRatio: 0.2,
  retryAfter: Object.freeze({ capMs: 60 * MINUTE_MS, timeScale: 1 }),
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
  const scaled: RetryPolicy = { ...policy, baseMs: policy.baseMs / factor, capMs: policy.capMs / factor };
  // A Retry-After wait is divided too, and so is its cap.
  if (policy.retryAfter) {
    const { capMs, timeScale } = policy.retryAfter;
    scaled.retryAfter = { ...policy.retryAfter, capMs: capMs / factor, timeScale: timeScale * factor };
  }
  return scaled;
}

/**
 * The delay before the attempt after `attemptNumber` (1-based), undefined when none follows: the
 * jittered backoff (`retryDelayMs`), lengthened to the wait a Retry-After header asks for when the
 * policy honours Retry-After and the answer is one that is retried (408, 429, 5xx), that wait
 * capped at the policy's `retryAfter.capMs`. A missing, unreadable or past Retry-After leaves the backoff as it is, and a
 * Retry-After never shortens it: max(backoff, min(wait, cap)). `now` is when the response arrived
 * (an HTTP date is relative to it); `random` as in retryDelayMs.
 */
export function delayAfter(
  policy: RetryPolicy,
  attemptNumber: number,
  result: AttemptResult,
  retryAfterHeader: string | null | undefined,
  now: Date,
  random: () => number = Math.random,
): number | undefined {
  const backoff = retryDelayMs(policy, attemptNumber, random);
  if (backoff === undefined) return undefined;
  const rule = policy.retryAfter;
  // A network error has no header; an answer that is not retried has no next attempt to put off.
  if (!rule || result.kind !== 'response' || verdictOf(result) !== 'retry') return backoff;
  const waitMs = retryAfterMs(retryAfterHeader, now);
  if (waitMs === undefined) return backoff;
  return Math.max(backoff, Math.min(Math.round(waitMs / rule.timeScale), rule.capMs));
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const LONG_DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY = DAY_NAMES.join('|');
const MONTH = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 §5.6.7, case-sensitive as specified: the preferred IMF-fixdate and the two obsolete forms
// a recipient must still accept.
const IMF_FIXDATE = new RegExp(`^(?:${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:${LONG_DAY_NAMES.join('|')}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:${DAY}) (${MONTH}) ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/**
 * The wait a Retry-After header asks for, in ms from `now` (0 for a date already past), or undefined
 * when there is no header or it is neither delay-seconds (digits only) nor an HTTP date. Strict on
 * purpose: Date.parse would read garbage such as "5 minutes" or a local-time date as something.
 */
export function retryAfterMs(header: string | null | undefined, now: Date): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = httpDateMs(value, now);
  return at === undefined ? undefined : Math.max(0, at - now.getTime());
}

/** An HTTP date as epoch ms (UTC), undefined when not one or not a real calendar date and time. */
function httpDateMs(value: string, now: Date): number | undefined {
  let m = IMF_FIXDATE.exec(value);
  if (m) return utc(Number(m[3]), m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!);
  m = RFC850_DATE.exec(value);
  if (m) {
    // A two-digit year more than 50 years ahead is the most recent past year with those digits.
    const nowYear = now.getUTCFullYear();
    let year = nowYear - (nowYear % 100) + Number(m[3]);
    if (year > nowYear + 50) year -= 100;
    return utc(year, m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!);
  }
  m = ASCTIME_DATE.exec(value);
  if (m) return utc(Number(m[6]), m[1]!, Number(m[2]!.trim()), m[3]!, m[4]!, m[5]!);
  return undefined;
}

function utc(year: number, monthName: string, day: number, hh: string, mm: string, ss: string): number | undefined {
  const month = MONTHS.indexOf(monthName as (typeof MONTHS)[number]);
  const [hours, minutes, seconds] = [Number(hh), Number(mm), Number(ss)];
  // Second 60 is a leap second (RFC 9110 allows it); Date.UTC carries it into the next minute.
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const date = new Date(Date.UTC(year, month, day));
  date.setUTCFullYear(year); // Date.UTC maps years 0..99 to 1900..1999
  // Reject dates that Date.UTC would roll over (31 Feb becomes 3 March).
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
  return date.getTime() + ((hours * 60 + minutes) * 60 + seconds) * 1000;
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
