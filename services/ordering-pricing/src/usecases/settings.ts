import type { TenantOwner } from '@marketplace/store';
import type { TenantSettingsRepository } from '../adapters/tenant-settings-repository';
import type { ServiceFeeRule } from '../domain/pricing';
import type { OrderingContext, TenantScope } from './context';

/** No service fee until the tenant sets one. */
const NO_FEE: ServiceFeeRule = { fixedMinor: 0, percent: 0 };

export async function serviceFeeOf(settings: TenantSettingsRepository, owner: TenantOwner): Promise<ServiceFeeRule> {
  return (await settings.findServiceFee(owner)) ?? NO_FEE;
}

export async function getServiceFee(ctx: OrderingContext, tenant: TenantScope): Promise<ServiceFeeRule> {
  return serviceFeeOf(ctx.store.settings, tenant);
}

export async function putServiceFee(
  ctx: OrderingContext,
  tenant: TenantScope,
  fee: ServiceFeeRule,
): Promise<ServiceFeeRule> {
  await ctx.store.settings.saveServiceFee(tenant, fee, ctx.now());
  return fee;
}
