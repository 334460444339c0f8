import type { TenantOwner } from '@marketplace/store';
import type { DispatchRules } from '../../domain/dispatch/plan';
import type { DeliveryContext } from '../context';

/** The tenant's dispatch rules, or undefined before it set any. */
export async function getDispatchRules(ctx: DeliveryContext, tenant: TenantOwner): Promise<DispatchRules | undefined> {
  return ctx.store.dispatchRules.find(tenant);
}
