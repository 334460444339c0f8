import { getAccount } from '../accounts/get-account';
import type { ProviderContext } from '../context';
import { issueApiKey, type MintedKey } from './issue-api-key';

/** A new key beside the others (404 for an unknown account). */
export async function mintKey(ctx: ProviderContext, accountId: string): Promise<MintedKey> {
  await getAccount(ctx, accountId);
  return issueApiKey(ctx, accountId);
}
