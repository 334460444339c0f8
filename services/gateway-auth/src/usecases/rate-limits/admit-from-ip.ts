import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import type { PartnerLimits } from '../../domain/rate-limits';

/**
 * Counts a Partner API request against its client IP (every request, authenticated or not). The
 * limiter is a sliding window in Redis, shared by every gateway instance (RateLimiter of
 * @marketplace/redis).
 */
export const admitFromIp = (limiter: RequestLimiter, limits: PartnerLimits, ip: string): Promise<RateDecision> =>
  limiter.take(`ip:${ip}`, limits.perIp, limits.windowSeconds);
