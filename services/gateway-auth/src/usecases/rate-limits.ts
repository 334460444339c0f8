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

/**
 * The bearer-token APIs: the tenant API (one budget for all of it, the forwarded parts included)
 * and the administrator API. Each has its own buckets, apart from the Partner API's.
 */
export type BearerSurface = 'tenant' | 'admin';
/** The surfaces with a per-IP limit of their own: the bearer-token APIs and the public pages and documents. */
export type LimitedSurface = BearerSurface | 'public';

/** A bearer-token API's limits: per client IP (before the token is checked) and per caller. */
export interface SurfaceLimits {
  perIp: number;
  /** Per tenant (the token's `tid`) on the tenant API, per administrator (`sub`) on the admin API. */
  perCaller: number;
  windowSeconds: number;
}

/** Counts a request of a bearer-token API against its client IP (every request, authenticated or not). */
export const admitSurfaceFromIp = (
  limiter: RequestLimiter,
  surface: LimitedSurface,
  limits: Pick<SurfaceLimits, 'perIp' | 'windowSeconds'>,
  ip: string,
): Promise<RateDecision> => limiter.take(`${surface}-ip:${ip}`, limits.perIp, limits.windowSeconds);

/** Counts an authenticated request of a bearer-token API against its caller (a tenant, an administrator). */
export const admitSurfaceCaller = (
  limiter: RequestLimiter,
  surface: BearerSurface,
  limits: SurfaceLimits,
  callerId: string,
): Promise<RateDecision> => limiter.take(`${surface}:${callerId}`, limits.perCaller, limits.windowSeconds);
