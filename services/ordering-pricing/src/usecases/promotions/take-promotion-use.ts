import type { TenantOwner } from '@marketplace/store';
import type { PromotionUsesRepository } from '../../adapters/promotion-uses-repository';

/**
 * Takes one use of a limited promotion for an order: uses are slots 1 to the limit, each claimed by
 * a unique insert, so two orders racing for the last use cannot both get it. Returns false when
 * every slot is taken. A slot taken by a request that failed afterwards stays taken (a use may be
 * lost, never granted twice).
 */
export async function takePromotionUse(
  uses: Pick<PromotionUsesRepository, 'countUses' | 'takeSlot'>,
  owner: TenantOwner,
  promotionId: string,
  limit: number,
  orderId: string,
): Promise<boolean> {
  // Slots are taken lowest first and never given back, so the ones in use are 1 to the count
  // (a count read while others claim is low, never high): start there instead of probing from 1.
  const used = await uses.countUses(owner, promotionId);
  for (let slot = used + 1; slot <= limit; slot++) {
    if (await uses.takeSlot(owner, promotionId, slot, orderId)) return true;
  }
  return false;
}
