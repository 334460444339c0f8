import type { StoredApiKey } from '../../adapters/api-keys-repository';
import { getAccount } from '../accounts/get-account';
import type { ProviderContext } from '../context';

/** The account's keys (never their secrets); 404 for an unknown account. */
export async function listKeys(ctx: ProviderContext, accountId: string): Promise<StoredApiKey[]> {
  await getAccount(ctx, accountId);
  return ctx.store.apiKeys.listForAccount({ accountId });
}
