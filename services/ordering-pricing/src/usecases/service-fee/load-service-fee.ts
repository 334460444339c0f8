import type { TenantOwner } from '@marketplace/store';
import type { TenantSettingsRepository } from '../../adapters/tenant-settings-repository';
import { NO_SERVICE_FEE, type ServiceFeeRule } from '../../domain/pricing';

/** The tenant's service fee rule: none until the tenant sets one. */
export async function loadServiceFee(
  settings: Pick<TenantSettingsRepository, 'findServiceFee'>,
  owner: TenantOwner,
): Promise<ServiceFeeRule> {
  return (await settings.findServiceFee(owner)) ?? NO_SERVICE_FEE;
}
