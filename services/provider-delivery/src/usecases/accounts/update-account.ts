import type { PlatformAccountPatch } from '@marketplace/contracts';
import { notFound } from '@marketplace/errors';
import type { PlatformAccount } from '../../domain/platform-account';
import type { ProviderContext } from '../context';
import { checkAccountFields } from './check-account-fields';

export async function updateAccount(
  ctx: ProviderContext,
  accountId: string,
  input: PlatformAccountPatch,
): Promise<PlatformAccount> {
  const changes = checkAccountFields(ctx, input);
  const account = await ctx.store.accounts.update({ accountId }, changes, ctx.now());
  if (!account) throw notFound();
  ctx.keyCache.forgetAccount(accountId);
  // The chosen event types are cached with the signing secret: this process applies a change at once.
  ctx.transportSecrets.forget(accountId);
  ctx.logger.info({ accountId, fields: Object.keys(changes) }, 'platform account changed');
  return account;
}
