import type { ServiceFeeRule } from '../../domain/pricing';
import type { OrderingContext, TenantScope } from '../context';

export async function putServiceFee(
  ctx: OrderingContext,
  tenant: TenantScope,
  fee: ServiceFeeRule,
): Promise<ServiceFeeRule> {
  await ctx.store.settings.saveServiceFee(tenant, fee, ctx.now());
  return fee;
}
