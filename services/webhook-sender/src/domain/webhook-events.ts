import {
  TOPICS,
  type DeliveryEvent,
  type DeliveryEventData,
  type EventTypeOf,
  type OrderEvent,
  type OrdersCancelledData,
  type OrdersCreatedData,
  type PaymentCompletedData,
  type TopicPayloads,
  type WebhookEnvelope,
} from '@marketplace/contracts';
import { currencyDecimals, fromMinorUnits } from '@marketplace/money';

/** Who receives a webhook (spec, "Event types"). */
export type Audience = { kind: 'broadcast' } | { kind: 'installation'; installationId: string };

/**
 * The order summary orders.created carries beyond its contract (OrdersCreatedData: "fields beyond
 * orderId, orderNumber and status are not part of this contract"). Optional where the orders topic
 * does not require the field (ordering always sends them with orders.created).
 */
interface OrderSummary {
  branchId?: string;
  orderMode?: number;
  paymentStatus?: OrderEvent['paymentStatus'];
  currencyCode?: string;
  grandTotal: number | null;
  createdAt?: string;
}

/** payment.completed's summary (PaymentCompletedData: "its fields are not part of this contract"). */
interface PaymentSummary {
  orderId: string;
  orderNumber: string;
  status: OrderEvent['status'];
  paymentStatus?: OrderEvent['paymentStatus'];
  paymentMethod?: number;
  currencyCode?: string;
  grandTotal: number | null;
  paidAt?: string;
}

/** The envelope's `data` of each webhook type made from domain events (shared/contracts/src/http/webhooks.ts). */
export interface WebhookData {
  'orders.created': OrdersCreatedData & OrderSummary;
  'orders.cancelled': OrdersCancelledData;
  'payment.completed': PaymentCompletedData & PaymentSummary;
  'delivery.assigned': DeliveryEventData;
  'delivery.superseded': DeliveryEventData;
  'delivery.cancelled': DeliveryEventData;
}

/** A webhook to deliver: its type, its audience within the tenant, and the envelope's `data` of that type. */
export type Webhook<W extends keyof WebhookData = keyof WebhookData> = {
  [K in W]: { tenantId: string; type: K; audience: Audience; data: WebhookData[K] };
}[W];

/** Types that are registered but never emitted (spec): nothing maps to them. */
export const RESERVED_TYPES: readonly string[] = ['orders.updated', 'catalog.updated'];

/** The topics whose events may become webhooks. */
export const WEBHOOK_SOURCE_TOPICS = [TOPICS.orders, TOPICS.deliveries] as const;
export type SourceTopic = (typeof WEBHOOK_SOURCE_TOPICS)[number];

/** A domain event as the mappers read it (a consumed event of a source topic is one): one member per topic. */
export type SourceEvent = {
  [T in SourceTopic]: { topic: T; type: EventTypeOf<T>; data: TopicPayloads[T] };
}[SourceTopic];

/**
 * Money in major units; null without an amount (the orders topic does not require one: JSON had
 * null there too, from NaN). Without a currency code, 2 decimals.
 */
const money = (minor: number | undefined, currencyCode: string | undefined): number | null =>
  minor === undefined ? null : fromMinorUnits(minor, currencyDecimals(currencyCode ?? ''));

/** The delivery.* webhook types: one per delivery event that partners are told of. */
type DeliveryWebhookType = 'delivery.assigned' | 'delivery.superseded' | 'delivery.cancelled';

/**
 * A delivery.* webhook: to the installation of the assignment the event is about (for
 * delivery.superseded the old one, for delivery.cancelled the one whose assignment was
 * terminated), identifiers only (spec, "Event types"; DeliveryEventData is closed). `live` is left
 * out on purpose: the new installation of a reassignment hears of it by its own delivery.assigned.
 */
const deliveryWebhook =
  (type: DeliveryWebhookType) =>
  (d: DeliveryEvent): Webhook<DeliveryWebhookType> => ({
    tenantId: d.tenantId,
    type,
    audience: { kind: 'installation', installationId: d.installationId },
    data: { orderId: d.orderId, orderNumber: d.orderNumber, assignmentId: d.assignmentId },
  });

/** Per source topic, per event type: the webhook its events become. */
type Mappers = { [T in SourceTopic]: { [E in EventTypeOf<T>]?: (data: TopicPayloads[T]) => Webhook } };

/**
 * Domain events (topic and type) → the webhook partners receive. Webhooks carry statuses by name
 * and money in major units, like REST answers. Events not listed (orders.status-changed, say)
 * send nothing: partners poll for them.
 */
const MAPPERS: Mappers = {
  [TOPICS.orders]: {
    'orders.created': (d): Webhook<'orders.created'> => ({
      tenantId: d.tenantId,
      type: 'orders.created',
      audience: { kind: 'broadcast' },
      data: {
        orderId: d.orderId,
        orderNumber: d.orderNumber,
        status: d.status,
        branchId: d.branchId,
        orderMode: d.orderMode,
        paymentStatus: d.paymentStatus,
        currencyCode: d.currencyCode,
        grandTotal: money(d.grandTotalMinor, d.currencyCode),
        createdAt: d.createdAt,
      },
    }),
    // Identifiers and status only, to the source installation only (spec).
    'orders.cancelled': (d): Webhook<'orders.cancelled'> => ({
      tenantId: d.tenantId,
      type: 'orders.cancelled',
      audience: { kind: 'installation', installationId: d.sourceInstallationId },
      data: { orderId: d.orderId, orderNumber: d.orderNumber, externalOrderId: d.externalOrderId, status: d.status },
    }),
    'payment.completed': (d): Webhook<'payment.completed'> => ({
      tenantId: d.tenantId,
      type: 'payment.completed',
      audience: { kind: 'broadcast' },
      data: {
        orderId: d.orderId,
        orderNumber: d.orderNumber,
        status: d.status,
        paymentStatus: d.paymentStatus,
        paymentMethod: d.paymentMethod,
        currencyCode: d.currencyCode,
        grandTotal: money(d.grandTotalMinor, d.currencyCode),
        paidAt: d.changedAt,
      },
    }),
  },
  // delivery.status-changed (the installation's own accept, reject, cancel or progress) sends
  // nothing: the caller already has the answer, and the spec sends no delivery.cancelled for a
  // provider's own cancel.
  [TOPICS.deliveries]: {
    'delivery.assigned': deliveryWebhook('delivery.assigned'),
    'delivery.superseded': deliveryWebhook('delivery.superseded'),
    'delivery.cancelled': deliveryWebhook('delivery.cancelled'),
  },
};

/**
 * The mapper of one topic's event applied to it. Generic in the topic so that the compiler sees the
 * mapper, the event type and the data belong to the same topic (a union of topics it cannot pair).
 */
function mapped<T extends SourceTopic>(event: { topic: T; type: EventTypeOf<T>; data: TopicPayloads[T] }) {
  const byType: Mappers[T] = MAPPERS[event.topic];
  return byType[event.type]?.(event.data);
}

/** The webhook a domain event becomes, if any. */
export function webhookOf(event: SourceEvent): Webhook | undefined {
  const webhook = mapped(event);
  return webhook && !RESERVED_TYPES.includes(webhook.type) ? webhook : undefined;
}

/** The envelope (spec, "Envelope"), serialized once: these bytes are sent, and signed, on every attempt. */
export function envelopeBody(id: string, type: string, occurredAt: string, data: WebhookEnvelope['data']): string {
  const envelope: WebhookEnvelope = { id, type, version: 1, occurredAt, data };
  return JSON.stringify(envelope);
}
