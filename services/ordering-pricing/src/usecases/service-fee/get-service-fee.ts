import type { ServiceFeeRule } from '../../domain/pricing';
import type { OrderingContext, TenantScope } from '../context';
import { loadServiceFee } from './load-service-fee';

export async function getServiceFee(ctx: OrderingContext, tenant: TenantScope): Promise<ServiceFeeRule> {
  return loadServiceFee(ctx.store.settings, tenant);
}
