import type { Logger } from '@marketplace/logging';
import type { AttemptEvent } from '../domain/attempt-event';
import type { PartnerWebhookDelivery } from '../domain/delivery';
import { deliveryIdOf } from '../domain/delivery-id';
import { deliveryKinds } from '../domain/delivery-kinds';
import type { InstallationCopy } from '../domain/installation';
import type { Webhook } from '../domain/webhook-events';
import type { WebhookContext } from './context';
import type { DeliveriesStore, InstallationCopiesStore } from './ports';
import { createDeliveries } from './create-deliveries';

// Who receives a webhook, over an in-memory installation copy and deliveries store.

const NOW = new Date('2026-11-24T10:00:00.000Z');

const copy = (id: string, changes: Partial<InstallationCopy> = {}): InstallationCopy => ({
  _id: id,
  tenantId: 'tenant-1',
  appId: 'app-1',
  status: 'installed',
  connected: true,
  webhookUrl: `https://${id}.example/hooks`,
  subscribedEvents: ['orders.created'],
  webhookSecretSealed: 'sealed',
  revision: 1,
  changedAt: new Date(0),
  ...changes,
});

const INSTALLATIONS = [
  copy('subscribed'),
  copy('unsubscribed', { subscribedEvents: ['payment.completed'] }),
  copy('disconnected', { connected: false }),
  copy('no-url', { webhookUrl: null }),
  copy('other-tenant', { tenantId: 'tenant-2' }),
];

const unused = (): never => {
  throw new Error('not used when deliveries are created');
};

function context() {
  const stored = new Map<string, { delivery: PartnerWebhookDelivery; events: AttemptEvent[] }>();
  const deliveries: DeliveriesStore = {
    create: async (owner, delivery, events) => {
      if (stored.has(delivery._id)) return false;
      stored.set(delivery._id, { delivery: { ...delivery, ...owner }, events });
      return true;
    },
    createForAccount: unused,
    findForAttempt: unused,
    findForTenant: unused,
    findProviderCallback: unused,
    listForInstallation: unused,
    listForAccount: unused,
    terminalEventSent: unused,
    markSending: unused,
    hasUnattemptedNonterminal: unused,
    pendingOfSubject: unused,
    hasTerminalEvent: unused,
    recordAttempt: unused,
    startRound: unused,
  };
  const installations: InstallationCopiesStore = {
    findForTenant: async (owner, id) => INSTALLATIONS.find((i) => i._id === id && i.tenantId === owner.tenantId),
    listForTenant: async (owner) => INSTALLATIONS.filter((i) => i.tenantId === owner.tenantId),
    saveIfNewer: unused,
    setSandboxFailures: unused,
    takeSandboxFailure: unused,
  };
  const ctx: WebhookContext = {
    store: {
      deliveries,
      installations,
      accountSecrets: { saveIfNewer: unused, findForAccount: unused },
      meta: { claimSendingSince: unused },
    },
    http: { post: unused },
    kinds: deliveryKinds(1),
    unseal: { installationSecret: unused, accountSecret: unused, callbackUrl: unused },
    locks: { withLock: unused },
    attemptLeaseMs: 30_000,
    metrics: { attempted: unused, ended: unused },
    logger: {} as Logger,
    now: () => NOW,
  };
  return { ctx, stored };
}

const orderCreated = (audience: Webhook['audience']): Webhook =>
  ({ tenantId: 'tenant-1', type: 'orders.created', audience, data: { orderId: 'o-1' } }) as unknown as Webhook;

describe('createDeliveries', () => {
  it('creates one delivery per installation of the tenant that takes the type, its first attempt due now', async () => {
    const { ctx, stored } = context();
    expect(await createDeliveries(ctx, orderCreated({ kind: 'broadcast' }), 'e-1', NOW.toISOString())).toBe(1);
    const id = deliveryIdOf('e-1', 'subscribed');
    expect([...stored.keys()]).toEqual([id]);
    const { delivery, events } = stored.get(id)!;
    expect(delivery).toMatchObject({
      tenantId: 'tenant-1',
      installationId: 'subscribed',
      kind: 'partner-webhook',
      status: 'pending',
      round: 1,
      nextAttempt: 1,
      nextAttemptAt: NOW,
      sourceEventId: 'e-1',
    });
    expect(JSON.parse(delivery.body)).toMatchObject({ id, type: 'orders.created', data: { orderId: 'o-1' } });
    expect(events).toEqual([
      expect.objectContaining({ key: 'subscribed', data: expect.objectContaining({ deliveryId: id, attempt: 1 }) }),
    ]);
  });

  it('creates nothing new for the same event seen again', async () => {
    const { ctx, stored } = context();
    await createDeliveries(ctx, orderCreated({ kind: 'broadcast' }), 'e-1', NOW.toISOString());
    expect(await createDeliveries(ctx, orderCreated({ kind: 'broadcast' }), 'e-1', NOW.toISOString())).toBe(0);
    expect(stored.size).toBe(1);
  });

  it('sends a webhook for one installation only to it, and only while it takes the type', async () => {
    const one = (installationId: string) => orderCreated({ kind: 'installation', installationId });
    const { ctx, stored } = context();
    expect(await createDeliveries(ctx, one('subscribed'), 'e-2', NOW.toISOString())).toBe(1);
    for (const id of ['unsubscribed', 'disconnected', 'no-url', 'other-tenant', 'unknown'])
      expect(await createDeliveries(ctx, one(id), 'e-2', NOW.toISOString())).toBe(0);
    expect([...stored.values()].map((s) => s.delivery.installationId)).toEqual(['subscribed']);
  });
});
