import type { Driver } from '../../domain/driver';
import { getAccount } from '../accounts/get-account';
import type { ProviderContext } from '../context';

/** The account's drivers, at most `limit` (404 for an unknown account). */
export async function listDrivers(ctx: ProviderContext, accountId: string, limit: number): Promise<Driver[]> {
  await getAccount(ctx, accountId);
  return ctx.store.drivers.list({ accountId }, limit);
}
