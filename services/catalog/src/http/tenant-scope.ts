import type { TenantIdentity, PartnerIdentity } from '@marketplace/identity';
import { currencyDecimals } from '@marketplace/money';
import { canonicalLanguage } from '../domain/language';
import type { TenantScope } from '../domain/tenant-scope';

/** The scope of a request, from the identity the gateway signed. */
export function tenantScope(identity: TenantIdentity | PartnerIdentity): TenantScope {
  const { currencyCode, defaultLanguage } = identity.tenant;
  return {
    tenantId: identity.tenantId,
    currencyCode,
    decimals: currencyDecimals(currencyCode),
    // The gateway checks the tag's shape only; compare in canonical form.
    defaultLanguage: canonicalLanguage(defaultLanguage) ?? defaultLanguage,
  };
}
