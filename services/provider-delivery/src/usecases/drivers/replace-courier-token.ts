import { hashCourierSecret, mintCourierToken } from '../../domain/driver';
import { driverNotFound } from '../../domain/errors';
import type { ProviderContext } from '../context';

/** A new courier credential for the driver (a lost phone): the previous one stops at once. */
export async function replaceCourierToken(
  ctx: ProviderContext,
  accountId: string,
  driverId: string,
): Promise<{ courierToken: string }> {
  const token = mintCourierToken();
  const hash = hashCourierSecret(token.secret, ctx.keyHashSecret);
  if (!(await ctx.store.drivers.replaceToken({ accountId }, driverId, token.tokenId, hash, ctx.now())))
    throw driverNotFound();
  ctx.logger.info({ accountId, driverId }, 'courier token replaced');
  return { courierToken: token.token };
}
