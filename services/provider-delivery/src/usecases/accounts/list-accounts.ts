import type { PlatformAccount } from '../../domain/platform-account';
import type { ProviderContext } from '../context';

/** At most this many accounts in the administrators' list. */
const ACCOUNT_LIST_LIMIT = 1_000;

export function listAccounts(ctx: ProviderContext): Promise<PlatformAccount[]> {
  return ctx.store.accounts.listAll(ACCOUNT_LIST_LIMIT);
}
