/** What a guard does with one request, by the budget it counts against. */
export type Admission =
  | { allowed: true; counted: true; limit: number; remaining: number }
  | { allowed: false; counted: true; limit: number; remaining: 0; retryAfterSeconds: number }
  /** The limiter did not answer (Redis away): admitted without counting. */
  | { allowed: true; counted: false };

/** The Redis bucket of an account (under the service's key prefix). */
export const accountBucket = (accountId: string) => `account:${accountId}`;

/** The surfaces of this service, each with a per-IP limit: its audiences (`public`: the tracking pages and the two documents). */
export type Surface = 'admin' | 'platform' | 'courier' | 'public';

/** The limit that refused a request (the metric's `scope`): never the account, address, driver or link itself. */
export type RateLimitScope =
  'account' | 'platform_ip' | 'admin_ip' | 'admin' | 'courier_ip' | 'courier' | 'public_ip' | 'tracking';
export const RATE_LIMIT_SCOPES: readonly RateLimitScope[] = [
  'account',
  'platform_ip',
  'admin_ip',
  'admin',
  'courier_ip',
  'courier',
  'public_ip',
  'tracking',
];
