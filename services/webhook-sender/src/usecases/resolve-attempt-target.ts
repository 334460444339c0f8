import type { AttemptTarget } from '../domain/attempt-decision';
import type { Delivery, PartnerWebhookDelivery, ProviderCallbackDelivery } from '../domain/delivery';
import { previousSecretInOverlap, receives } from '../domain/installation';
import { SUPERSEDED_BY_TERMINAL, TERMINAL_HOLD } from '../domain/provider-callback';
import { cameBefore, FIRST_OF_SEQUENCE, heldUntil } from '../domain/webhook-sequence';
import type { WebhookContext } from './context';

export type { AttemptTarget };

/**
 * Where and with what secret an attempt goes, read afresh before each attempt, why the delivery
 * ends instead, or until when the attempt waits (see AttemptTarget in domain/attempt-decision.ts).
 */
export function resolveAttemptTarget(ctx: WebhookContext, delivery: Delivery): Promise<AttemptTarget> {
  return delivery.kind === 'partner-webhook' ? installationTarget(ctx, delivery) : callbackTarget(ctx, delivery);
}

/**
 * A partner webhook: the installation's URL and secret, while it still takes the type, and the
 * secret a rotation replaced while its overlap lasts; it waits while an earlier webhook of its
 * order to the installation is pending (the per-order sequence, domain/webhook-sequence.ts).
 */
async function installationTarget(ctx: WebhookContext, delivery: PartnerWebhookDelivery): Promise<AttemptTarget> {
  const installation = await ctx.store.installations.findForTenant(
    { tenantId: delivery.tenantId },
    delivery.installationId,
  );
  if (!installation || !receives(installation, delivery.type))
    return {
      send: false,
      status: 'cancelled',
      reason: 'the installation no longer takes this event (disconnected, uninstalled or unsubscribed)',
    };
  const earlier = await earlierOfSequence(ctx, delivery);
  if (earlier)
    return {
      send: false,
      status: 'pending',
      until: heldUntil(ctx.now(), earlier.nextAttemptAt),
      reason: 'waiting for an earlier webhook of the order to be delivered first',
    };
  const previousSealed = previousSecretInOverlap(installation, ctx.now());
  return {
    send: true,
    url: installation.webhookUrl!,
    secret: ctx.unseal.installationSecret(installation._id, installation.webhookSecretSealed!),
    ...(previousSealed && { previousSecret: ctx.unseal.installationSecret(installation._id, previousSealed) }),
    ...((installation.sandboxFailuresLeft ?? 0) > 0 && { sandboxFailure: true as const }),
  };
}

/**
 * A provider callback: the delivery's own callback URL and the account's newest known secret.
 *
 * The contract's terminal rule ("after sending a terminal event the provider MUST stop sending
 * nonterminal events") is kept in two halves, so that a delivery's events all reach the platform
 * when they come in a burst (a simulated courier, a sender catching up), yet none follows its end:
 * - a nonterminal event ends as cancelled once a terminal event of its delivery was sent or was
 *   about to be (`markSending` comes before its request), however many of its retries are left;
 * - a terminal event's first attempt waits while an earlier event of its delivery has not had its
 *   first attempt (at most TERMINAL_HOLD.maxMs after the terminal event came).
 * A secret or URL that cannot be had ends the callback as failed: an operator fixes the cause
 * (WEBHOOK_SECRET_TRANSPORT_KEY, provider-delivery's event) and redelivers.
 */
async function callbackTarget(ctx: WebhookContext, delivery: ProviderCallbackDelivery): Promise<AttemptTarget> {
  const owner = { accountId: delivery.accountId };
  if (delivery.terminal) {
    const now = ctx.now();
    if (
      delivery.attempts.length === 0 &&
      !delivery.sendStartedAt &&
      now.getTime() - delivery.createdAt.getTime() < TERMINAL_HOLD.maxMs &&
      (await ctx.store.deliveries.hasUnattemptedNonterminal(owner, delivery.providerDeliveryId))
    )
      return {
        send: false,
        status: 'pending',
        until: new Date(now.getTime() + TERMINAL_HOLD.stepMs),
        reason: 'waiting for the earlier events of the delivery to be sent first',
      };
  } else if (await ctx.store.deliveries.terminalEventSent(owner, delivery.providerDeliveryId))
    return { send: false, status: 'cancelled', reason: SUPERSEDED_BY_TERMINAL };
  const copy = await ctx.store.accountSecrets.findForAccount(owner);
  if (!copy) return { send: false, status: 'failed', reason: 'no signing secret of the platform account is known' };
  const secret = opened(() => ctx.unseal.accountSecret(delivery.accountId, copy.sealed));
  if (secret === undefined)
    return {
      send: false,
      status: 'failed',
      reason: "the platform account's signing secret does not open (sealed under another transport key?)",
    };
  const url = opened(() => ctx.unseal.callbackUrl(delivery.providerDeliveryId, delivery.callbackUrlSealed));
  if (url === undefined)
    return {
      send: false,
      status: 'failed',
      reason: 'the callback URL does not open (sealed under another transport key?)',
    };
  return { send: true, url, secret };
}

/** The earliest pending webhook of the delivery's order to its installation that came before it, if any. */
async function earlierOfSequence(ctx: WebhookContext, delivery: PartnerWebhookDelivery) {
  if (delivery.subject === undefined || FIRST_OF_SEQUENCE.has(delivery.type)) return undefined;
  const owner = { tenantId: delivery.tenantId, installationId: delivery.installationId };
  const pending = await ctx.store.deliveries.pendingOfSubject(owner, delivery.subject, delivery.createdAt);
  return pending
    .filter((d) => d._id !== delivery._id && cameBefore(d, delivery))
    .sort((a, b) => (cameBefore(a, b) ? -1 : 1))[0];
}

/** The opened value, or undefined when it does not open (the cause says nothing worth keeping). */
function opened(open: () => string): string | undefined {
  try {
    return open();
  } catch {
    return undefined;
  }
}
