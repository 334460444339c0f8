import { webhookSecretContext } from '../../domain/platform-account';
import type { ProviderContext } from '../context';

/** The account's webhook secret in clear, for signing its events; undefined when there is no such account. */
export async function openWebhookSecret(ctx: ProviderContext, accountId: string): Promise<string | undefined> {
  const stored = await ctx.store.accounts.findSealedWebhookSecret({ accountId });
  return stored === undefined ? undefined : ctx.box.open(stored.sealed, webhookSecretContext(accountId));
}
