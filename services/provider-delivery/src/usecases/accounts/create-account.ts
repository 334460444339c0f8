import type { PlatformAccountInput } from '@marketplace/contracts';
import {
  defaultEventTypes,
  defaultRateLimit,
  mintWebhookSecret,
  SIMULATOR_OFF,
  webhookSecretContext,
  type PlatformAccount,
} from '../../domain/platform-account';
import type { ProviderContext } from '../context';
import { checkAccountFields } from './check-account-fields';

/** A new account and its webhook secret (the only time the secret is returned). */
export async function createAccount(
  ctx: ProviderContext,
  input: PlatformAccountInput,
): Promise<{ account: PlatformAccount; webhookSecret: string }> {
  const changes = checkAccountFields(ctx, input);
  const now = ctx.now();
  const account: PlatformAccount = {
    id: ctx.newId(),
    name: input.name,
    webhookUrl: changes.webhookUrl ?? null,
    capabilities: changes.capabilities!,
    serviceArea: changes.serviceArea!,
    rateLimit: changes.rateLimit ?? defaultRateLimit(),
    simulator: changes.simulator ?? SIMULATOR_OFF,
    eventTypes: changes.eventTypes ?? defaultEventTypes(),
    createdAt: now,
    updatedAt: now,
  };
  const webhookSecret = mintWebhookSecret();
  await ctx.store.accounts.insert(account, ctx.box.seal(webhookSecret, webhookSecretContext(account.id)));
  ctx.logger.info({ accountId: account.id }, 'platform account created');
  return { account, webhookSecret };
}
