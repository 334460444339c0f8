import { notFound } from '@marketplace/errors';
import type { PlatformAccount } from '../../domain/platform-account';
import type { ProviderContext } from '../context';

/** The account; 404 when there is none. */
export async function getAccount(ctx: ProviderContext, accountId: string): Promise<PlatformAccount> {
  const account = await ctx.store.accounts.find({ accountId });
  if (!account) throw notFound();
  return account;
}
