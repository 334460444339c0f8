import { TOPICS } from '@marketplace/contracts';
import { notFound } from '@marketplace/errors';
import type { OutgoingEvent } from '@marketplace/events';
import { mintWebhookSecret, webhookSecretContext } from '../../domain/platform-account';
import type { ProviderContext } from '../context';
import { sealSecretForTransport } from './seal-secret-for-transport';

/**
 * A new webhook secret, shown once; the old one stops signing at once. The webhook sender learns it
 * from `platform-account.webhook-secret-rotated` on `provider-events`, staged in the same write, so
 * the next attempt of every pending event is signed with the new one.
 */
export async function rotateWebhookSecret(
  ctx: ProviderContext,
  accountId: string,
): Promise<{ webhookSecret: string; rotatedAt: Date }> {
  const webhookSecret = mintWebhookSecret();
  const rotatedAt = ctx.now();
  const sealed = ctx.box.seal(webhookSecret, webhookSecretContext(accountId));
  const rotation: OutgoingEvent = {
    topic: TOPICS.providerEvents,
    key: accountId,
    type: 'platform-account.webhook-secret-rotated',
    data: {
      accountId,
      webhookSecret: sealSecretForTransport(ctx, accountId, webhookSecret, rotatedAt),
      delivery: null,
    },
  };
  if (!(await ctx.store.accounts.replaceWebhookSecret({ accountId }, sealed, rotatedAt, [rotation]))) throw notFound();
  ctx.transportSecrets.forget(accountId);
  await ctx.events.publishAccount(accountId);
  ctx.logger.info({ accountId }, 'platform webhook secret rotated');
  return { webhookSecret, rotatedAt };
}
