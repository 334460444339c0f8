import { currencyDecimals } from '@marketplace/money';

/** The tenant a request acts for (from the gateway's signed identity). */
export interface TenantScope {
  tenantId: string;
  currencyCode: string;
  decimals: number;
}

/** The scope of a tenant, partner or processor identity: its tenant, and the tenant's currency. */
export function tenantScope(identity: { tenantId: string; tenant: { currencyCode: string } }): TenantScope {
  return {
    tenantId: identity.tenantId,
    currencyCode: identity.tenant.currencyCode,
    decimals: currencyDecimals(identity.tenant.currencyCode),
  };
}
