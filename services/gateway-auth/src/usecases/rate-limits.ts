/** What a rate-limit bucket answers for one request. */
export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Whole seconds until a request would be admitted (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Counts requests per bucket, at most `limit` in any `windowSeconds` (adapters/rate-limiter.ts: a
 * sliding window in Redis, shared by every gateway instance).
 */
export interface RequestLimiter {
  take(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision>;
}

/** The Partner API's limits: per client IP, and per installation (all endpoints share it). */
export interface PartnerLimits {
  perIp: number;
  perInstallation: number;
  windowSeconds: number;
}

/** Counts a Partner API request against its client IP (every request, authenticated or not). */
export const admitFromIp = (limiter: RequestLimiter, limits: PartnerLimits, ip: string): Promise<RateDecision> =>
  limiter.take(`ip:${ip}`, limits.perIp, limits.windowSeconds);

/** Counts an authenticated Partner API request against its installation. */
export const admitForInstallation = (
  limiter: RequestLimiter,
  limits: PartnerLimits,
  installationId: string,
): Promise<RateDecision> =>
  limiter.take(`installation:${installationId}`, limits.perInstallation, limits.windowSeconds);
