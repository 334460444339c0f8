import { randomBytes, randomUUID } from 'node:crypto';
import type { EventTypeOf, ProviderEvent } from '@marketplace/contracts';
import {
  createKafka,
  EventPublisher,
  EventSchemas,
  loadTopicCatalog,
  SchemaValidator,
  type OutgoingEvent,
  kafkaConnectionFromEnv,
  registryConnectionFromEnv,
} from '@marketplace/events';
import { sealForTransport, TRANSPORT_CONTEXTS } from '@marketplace/identity';
import { quietLogger, recordIssuedSecret, stackEnv } from '@marketplace/testing';

/**
 * provider-delivery's side of `provider-events`, as its outbox will publish: a platform account
 * with a signing secret, provider deliveries with a callback URL holding a confidential token, and
 * their events, sealed with the WEBHOOK_SECRET_TRANSPORT_KEY the test gives its sender, and
 * validated against the topic's schema on the way out.
 */

/** The flat event as the platform receives it. */
export type PlatformWebhookEvent = NonNullable<ProviderEvent['delivery']>['body'];

export interface TestAccount {
  accountId: string;
  secret: string;
  webhookSecret: ProviderEvent['webhookSecret'];
}

export interface TestProviderDelivery {
  account: TestAccount;
  providerDeliveryId: string;
  /** The confidential routing token in the callback's path. */
  token: string;
  /** The callback's path at the receiver. */
  path: string;
  callbackUrlSealed: string;
}

/** A platform account whose signing secret was set at `rotatedAt`, sealed under `key`. */
export function testAccount(key: Buffer, accountId: string = randomUUID(), rotatedAt = new Date()): TestAccount {
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  recordIssuedSecret('provider webhook signing secret', secret); // for the secrets audit
  return {
    accountId,
    secret,
    webhookSecret: {
      sealed: sealForTransport(key, TRANSPORT_CONTEXTS.platformAccountSecret(accountId), secret),
      rotatedAt: rotatedAt.toISOString(),
    },
  };
}

/** A provider delivery of the account whose callback is `receiverUrl` + /callbacks/<token>, sealed under `key`. */
export function testProviderDelivery(key: Buffer, account: TestAccount, receiverUrl: string): TestProviderDelivery {
  const providerDeliveryId = randomUUID();
  const token = `cbt_${randomBytes(18).toString('hex')}`;
  recordIssuedSecret('callback token', token); // for the secrets audit
  const path = `/callbacks/${token}`;
  return {
    account,
    providerDeliveryId,
    token,
    path,
    callbackUrlSealed: sealForTransport(
      key,
      TRANSPORT_CONTEXTS.deliveryCallbackUrl(providerDeliveryId),
      `${receiverUrl}${path}`,
    ),
  };
}

/** The driver's phone of the flat events: personal data, which no log may hold (the audit looks). */
const DRIVER_PHONE = '+49 170 1234567';

/** The flat event of the contract, with a driver's name that is not ASCII (the bytes must survive). */
export function flatEvent(
  delivery: TestProviderDelivery,
  eventType: string,
  status: PlatformWebhookEvent['status'],
): PlatformWebhookEvent {
  recordIssuedSecret('driver phone number', DRIVER_PHONE);
  return {
    eventType,
    platformReference: `order-${delivery.providerDeliveryId.slice(0, 8)}`,
    providerDeliveryId: delivery.providerDeliveryId,
    status,
    eventTimeUtc: new Date().toISOString(),
    driverName: 'Jürgen Müller',
    driverPhone: DRIVER_PHONE,
    driverLat: 52.520008,
    driverLng: 13.404954,
    trackingUrl: null,
    estimatedDeliveryAtUtc: null,
  };
}

/** One delivery event on `provider-events` (key: the provider delivery), with the account's secret as given. */
export function deliveryEvent(
  delivery: TestProviderDelivery,
  body: PlatformWebhookEvent,
  terminal: boolean,
  webhookSecret = delivery.account.webhookSecret,
): OutgoingEvent {
  const data: ProviderEvent = {
    accountId: delivery.account.accountId,
    webhookSecret,
    delivery: {
      providerDeliveryId: delivery.providerDeliveryId,
      callbackUrlSealed: delivery.callbackUrlSealed,
      terminal,
      body,
    },
  };
  return {
    topic: 'provider-events',
    key: delivery.providerDeliveryId,
    type: body.eventType as EventTypeOf<'provider-events'>,
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    data,
  };
}

/** A rotation of the account's secret (key: the account; no delivery). */
export function rotationEvent(account: TestAccount): OutgoingEvent {
  const data: ProviderEvent = { accountId: account.accountId, webhookSecret: account.webhookSecret, delivery: null };
  return {
    topic: 'provider-events',
    key: account.accountId,
    type: 'platform-account.webhook-secret-rotated',
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    data,
  };
}

/** A publisher of `provider-events` that validates every value against the topic's schema. */
export async function providerEventsPublisher(): Promise<{
  publish(events: OutgoingEvent[]): Promise<void>;
  close(): Promise<void>;
}> {
  const catalog = loadTopicCatalog();
  const publisher = new EventPublisher(
    createKafka({
      connection: kafkaConnectionFromEnv(stackEnv()),
      clientId: 'provider-events-it',
      logger: quietLogger(),
    }),
    catalog,
    new EventSchemas(registryConnectionFromEnv(stackEnv()), catalog),
    new SchemaValidator([...catalog.topics].map(([name, spec]) => [name, spec.schema])),
    'provider-events-it',
  );
  await publisher.connect();
  return {
    publish: async (events) => void (await publisher.publish(events)),
    close: () => publisher.disconnect(),
  };
}
