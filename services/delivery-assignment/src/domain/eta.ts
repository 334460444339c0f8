import { DELIVERY_LIMITS } from '@marketplace/contracts';
import { validationError } from '@marketplace/errors';

/**
 * The ETA's limits beyond its format: a little in the past is a late report (clock skew, a slow
 * network) and is kept as sent; further back, or more than a week ahead, is a mistake: 400.
 */
export function checkEta(eta: Date | null, now: Date): Date | null {
  if (eta === null) return null;
  const earliest = now.getTime() - DELIVERY_LIMITS.etaPastToleranceSeconds * 1000;
  const latest = now.getTime() + DELIVERY_LIMITS.etaMaxAheadDays * 86_400_000;
  if (eta.getTime() < earliest)
    throw validationError('request.invalid', 'The request body is invalid.', {
      etaUtc: [`must not be more than ${DELIVERY_LIMITS.etaPastToleranceSeconds / 60} minutes in the past`],
    });
  if (eta.getTime() > latest)
    throw validationError('request.invalid', 'The request body is invalid.', {
      etaUtc: [`must not be more than ${DELIVERY_LIMITS.etaMaxAheadDays} days ahead`],
    });
  return eta;
}
