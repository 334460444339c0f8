import type { RateDecision, RequestLimiter } from '@marketplace/redis';
import type { PartnerLimits } from '../../domain/rate-limits';

/** Counts an authenticated Partner API request against its installation (all endpoints share it). */
export const admitForInstallation = (
  limiter: RequestLimiter,
  limits: PartnerLimits,
  installationId: string,
): Promise<RateDecision> =>
  limiter.take(`installation:${installationId}`, limits.perInstallation, limits.windowSeconds);
