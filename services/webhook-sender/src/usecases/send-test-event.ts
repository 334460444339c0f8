import { randomUUID } from 'node:crypto';
import { notFound } from '@marketplace/errors';
import type { PartnerWebhookDelivery } from '../domain/delivery';
import { notReceiving, receives, SYSTEM_TEST } from '../domain/installation';
import type { WebhookContext } from './context';
import { createDelivery } from './create-delivery';
import { getDelivery } from './get-delivery';

/**
 * system.test to one of the tenant's installations (connected, with a webhook URL): the same
 * pipeline as every webhook, no business data.
 */
export async function sendTestEvent(
  ctx: WebhookContext,
  tenantId: string,
  installationId: string,
): Promise<PartnerWebhookDelivery> {
  const installation = await ctx.store.installations.findForTenant({ tenantId }, installationId);
  if (!installation) throw notFound();
  if (!receives(installation, SYSTEM_TEST)) throw notReceiving();
  const id = randomUUID();
  const occurredAt = ctx.now().toISOString();
  await createDelivery(ctx, installation, { type: SYSTEM_TEST, id, sourceEventId: null, occurredAt, data: {} });
  return getDelivery(ctx, { tenantId }, id);
}
