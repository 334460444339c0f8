import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import type { BearerSurface, SurfaceLimits } from '../../domain/rate-limits';

/** Counts an authenticated request of a bearer-token API against its caller (a tenant, an administrator). */
export const admitSurfaceCaller = (
  limiter: RequestLimiter,
  surface: BearerSurface,
  limits: SurfaceLimits,
  callerId: string,
): Promise<RateDecision> => limiter.take(`${surface}:${callerId}`, limits.perCaller, limits.windowSeconds);
