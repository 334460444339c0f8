import type { RateDecision, RequestLimiter } from '@marketplace/redis';

/**
 * The limiter is a sliding window in Redis, shared by every gateway instance (RateLimiter of
 * @marketplace/redis); its port and answer are re-exported for the HTTP edge.
 */
export type { RateDecision, RequestLimiter };

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
