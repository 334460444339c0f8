import { randomBytes } from 'node:crypto';
import type { DeliveryEvent } from '@marketplace/contracts';
import type { Delivery } from '../../domain/delivery';
import { CALLBACK_PATH, callbackTokenHash } from '../../domain/dispatch/callback-token';
import type { ProviderDispatch } from '../../domain/dispatch/dispatch';
import { decisionEvents } from '../../domain/dispatch/dispatch-events';
import type { DeliveryContext } from '../context';

/**
 * A delivery.assigned to a provider connection's installation (the deliveries topic, this
 * service's own) opens the assignment's dispatch: a callback URL with a fresh unguessable token
 * (256 bits; only its hash and the sealed URL are stored), and the create due at once. Nothing for
 * an installation that is no connection's, for an assignment that is not live and Assigned any
 * more (a redelivered old event), or when the dispatch exists already (a redelivery).
 */
export async function openDispatch(ctx: DeliveryContext, event: DeliveryEvent): Promise<boolean> {
  const tenant = { tenantId: event.tenantId };
  const installation = await ctx.store.connectionInstallations.find(tenant, event.installationId);
  if (!installation) return false;
  const delivery = await ctx.store.deliveries.findByOrder(tenant, event.orderId);
  const live = delivery?.live;
  if (!delivery || !live || live.assignmentId !== event.assignmentId || live.status !== 'Assigned') return false;
  const connection = await ctx.store.connections.find(tenant, installation.connectionId);
  if (!connection) return false;

  const now = ctx.now();
  const token = randomBytes(32).toString('base64url');
  const base = ctx.dispatch.callbackBaseUrl;
  const callbackUrl = base === null ? null : `${base.replace(/\/+$/, '')}${CALLBACK_PATH}/${token}`;
  const dispatch: ProviderDispatch = {
    _id: event.assignmentId,
    tenantId: event.tenantId,
    orderId: event.orderId,
    installationId: event.installationId,
    connectionId: connection._id,
    callbackTokenHash: callbackTokenHash(token),
    callbackUrlSealed:
      callbackUrl === null ? null : ctx.dispatch.secrets.sealCallbackUrl(event.assignmentId, callbackUrl),
    createdAt: now,
    create: { state: 'due', attempts: 0, detail: null, answeredAt: null },
    providerDeliveryId: null,
    providerTrackingId: null,
    provider: null,
    firstEta: null,
    seen: [],
    lastHeardAt: null,
    lastPolledAt: null,
    cancel: null,
    suspectSince: null,
    pollAttempts: 0,
    pollRetryAt: null,
    revision: 0,
    appliedRevision: 0,
    dueAt: now,
    closed: false,
    log: [{ at: now, decision: 'chosen', reason: chosenBecause(delivery, event.installationId, connection.name) }],
    version: 1,
    updatedAt: now,
  };
  const inserted = await ctx.store.dispatches.insert(tenant, dispatch, decisionEvents(undefined, dispatch));
  if (!inserted) return false;
  await ctx.dispatch.events.dispatch(dispatch._id);
  ctx.dispatch.work.kick();
  return true;
}

/** Why the assignment went to this connection: the plan's last word on it (rules, rescue), else by hand. */
function chosenBecause(delivery: Delivery, installationId: string, name: string): string {
  const planned = [...(delivery.dispatchPlan?.log ?? [])].reverse().find((l) => l.installationId === installationId);
  if (planned?.decision === 'rescued') return `rescued to the connection "${name}": ${planned.reason}`;
  if (planned?.decision === 'chosen') return `the connection "${name}", ${planned.reason}`;
  return `assigned to the connection "${name}" by the tenant`;
}
