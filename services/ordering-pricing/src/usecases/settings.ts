import type { OrderingCollections } from '../adapters/store';
import type { ServiceFeeRule } from '../domain/pricing';
import type { OrderingContext, TenantScope } from './context';
import { fromMinorUnits } from '@marketplace/money';

/** No service fee until the tenant sets one. */
const NO_FEE: ServiceFeeRule = { fixedMinor: 0, percent: 0 };

export async function serviceFeeOf(store: OrderingCollections, tenantId: string): Promise<ServiceFeeRule> {
  return (await store.settings.findOne({ _id: tenantId }))?.serviceFee ?? NO_FEE;
}

export const serviceFeeView = (fee: ServiceFeeRule, tenant: TenantScope) => ({ currencyCode: tenant.currencyCode, fixed: fromMinorUnits(fee.fixedMinor, tenant.decimals), percent: fee.percent });

export async function getServiceFee(ctx: OrderingContext, tenant: TenantScope) {
  return serviceFeeView(await serviceFeeOf(ctx.store, tenant.tenantId), tenant);
}

export async function putServiceFee(ctx: OrderingContext, tenant: TenantScope, fee: ServiceFeeRule) {
  await ctx.store.settings.updateOne({ _id: tenant.tenantId }, { $set: { serviceFee: fee, updatedAt: ctx.now() } }, { upsert: true });
  return serviceFeeView(fee, tenant);
}
