import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import type { LimitedSurface, SurfaceLimits } from '../../domain/rate-limits';

/** Counts a request of a bearer-token API (or the public pages) against its client IP (every request, authenticated or not). */
export const admitSurfaceFromIp = (
  limiter: RequestLimiter,
  surface: LimitedSurface,
  limits: Pick<SurfaceLimits, 'perIp' | 'windowSeconds'>,
  ip: string,
): Promise<RateDecision> => limiter.take(`${surface}-ip:${ip}`, limits.perIp, limits.windowSeconds);
