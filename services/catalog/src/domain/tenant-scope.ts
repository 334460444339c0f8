import type { TenantRules } from './rules';

/** The tenant a request acts for, with what its catalog rules need (from the gateway's signed identity). */
export interface TenantScope extends TenantRules {
  tenantId: string;
  decimals: number;
}
