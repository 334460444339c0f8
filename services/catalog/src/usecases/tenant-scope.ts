import type { TenantIdentity, PartnerIdentity } from '@marketplace/identity';
import { currencyDecimals } from '@marketplace/money';
import { canonicalLanguage } from '../domain/language';
import type { TenantRules } from '../domain/rules';

/** The tenant a request acts for, with what its catalog rules need (from the gateway's signed identity). */
export interface TenantScope extends TenantRules {
  tenantId: string;
  decimals: number;
}

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
