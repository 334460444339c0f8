import { TENANT_TOKEN_LIFETIME } from '@marketplace/contracts';
import { AppError, type FieldErrors } from '@marketplace/errors';

export { TENANT_TOKEN_LIFETIME };

/** What an administrator asks for when minting a tenant token (`TenantTokenRequest`). */
export interface TenantTokenLifetimeRequest {
  expiresInSeconds?: number;
  allowLongerThan30Days?: boolean;
}

/**
 * The lifetime of a tenant token in seconds: 30 days unless asked otherwise; at least a minute; at
 * most 30 days, or 365 with `allowLongerThan30Days: true`. The request schema says the same (so the
 * OpenAPI document does); this is the rule itself, for the use case: a field error otherwise.
 */
export function tenantTokenLifetime(request: TenantTokenLifetimeRequest): number {
  const { minSeconds, defaultSeconds, maxSeconds, extendedMaxSeconds } = TENANT_TOKEN_LIFETIME;
  const seconds = request.expiresInSeconds ?? defaultSeconds;
  const max = request.allowLongerThan30Days === true ? extendedMaxSeconds : maxSeconds;
  const errors: FieldErrors = {};
  if (!Number.isInteger(seconds) || seconds < minSeconds)
    errors.expiresInSeconds = [`must be an integer of at least ${minSeconds}`];
  else if (seconds > max)
    errors.expiresInSeconds = [
      max === maxSeconds
        ? `must be <= ${maxSeconds} (30 days) unless allowLongerThan30Days is true`
        : `must be <= ${extendedMaxSeconds} (365 days)`,
    ];
  if (Object.keys(errors).length > 0)
    throw new AppError('validation', 'request.invalid', 'The request is invalid.', { fieldErrors: errors });
  return seconds;
}
