import { currencyDecimals, fromMinorUnits } from '@marketplace/money';

/** Who receives a webhook (spec, "Event types"). */
export type Audience = { kind: 'broadcast' } | { kind: 'installation'; installationId: string };

/** A webhook to deliver: its type, its audience within the tenant, and the envelope's `data`. */
export interface Webhook {
  tenantId: string;
  type: string;
  audience: Audience;
  data: Record<string, unknown>;
}

/** Types that are registered but never emitted (spec): nothing maps to them. */
export const RESERVED_TYPES = ['orders.updated', 'catalog.updated'];

const money = (minor: unknown, currencyCode: unknown) => fromMinorUnits(Number(minor), currencyDecimals(String(currencyCode)));

type Mapper = (data: Record<string, any>) => Webhook | undefined;

/**
 * Domain events (topic and type) → the webhook partners receive. Webhooks carry statuses by name
 * and money in major units, like REST answers. Events not listed (orders.status-changed, say)
 * send nothing: partners poll for them.
 */
const MAPPERS: Record<string, Mapper> = {
  'orders:orders.created': (d) => ({
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
  'orders:orders.cancelled': (d) => ({
    tenantId: d.tenantId,
    type: 'orders.cancelled',
    audience: { kind: 'installation', installationId: d.sourceInstallationId },
    data: { orderId: d.orderId, orderNumber: d.orderNumber, externalOrderId: d.externalOrderId, status: d.status },
  }),
  'orders:payment.completed': (d) => ({
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
};

/** The topics whose events may become webhooks. */
export const WEBHOOK_SOURCE_TOPICS = [...new Set(Object.keys(MAPPERS).map((key) => key.split(':')[0]!))];

export function webhookOf(topic: string, type: string, data: unknown): Webhook | undefined {
  const mapper = MAPPERS[`${topic}:${type}`];
  const webhook = mapper?.(data as Record<string, any>);
  return webhook && !RESERVED_TYPES.includes(webhook.type) ? webhook : undefined;
}

/** The envelope (spec, "Envelope"), serialized once: these bytes are sent, and signed, on every attempt. */
export function envelopeBody(id: string, type: string, occurredAt: string, data: Record<string, unknown>): string {
  return JSON.stringify({ id, type, version: 1, occurredAt, data });
}
