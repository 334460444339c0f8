import { courierSecretMatches, type CourierTokenParts } from '../../domain/driver';
import type { ProviderContext } from '../context';

/** The driver a courier token names, or undefined (the caller answers 401 whatever was wrong). */
export async function authenticateCourier(ctx: ProviderContext, presented: CourierTokenParts) {
  const found = await ctx.store.drivers.findByTokenId(presented.tokenId);
  if (!found || !courierSecretMatches(presented.secret, found.tokenHash, ctx.keyHashSecret)) return undefined;
  return found.driver;
}
