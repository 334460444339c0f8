import { fromMinorUnits } from '@marketplace/money';
import type { ServiceFeeRule } from '../../domain/pricing';
import type { TenantScope } from '../../domain/tenant-scope';

/** Tenant API: the service fee, the fixed part in the tenant's currency. */
export const serviceFeeView = (fee: ServiceFeeRule, tenant: TenantScope) => ({
  currencyCode: tenant.currencyCode,
  fixed: fromMinorUnits(fee.fixedMinor, tenant.decimals),
  percent: fee.percent,
});
