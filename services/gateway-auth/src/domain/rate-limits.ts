/**
 * The limit that refused a request: the Partner API's (and the public pages') per client IP and per
 * installation, the tenant API's per client IP and per tenant, the administrator API's per client
 * IP and per administrator.
 */
export type RateLimitScope = 'ip' | 'installation' | 'public_ip' | 'tenant_ip' | 'tenant' | 'admin_ip' | 'admin';
export const RATE_LIMIT_SCOPES: readonly RateLimitScope[] = [
  'ip',
  'installation',
  'public_ip',
  'tenant_ip',
  'tenant',
  'admin_ip',
  'admin',
];

/** The Partner API's limits: per client IP, and per installation (all endpoints share it). */
export interface PartnerLimits {
  perIp: number;
  perInstallation: number;
  windowSeconds: number;
}

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
