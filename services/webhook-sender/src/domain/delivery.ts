import type { DeliveryStatus } from '../domain/delivery-status';

/**
 * The deliveries as the use cases read and write them, with their attempts: a partner webhook to
 * one installation of a tenant, or a provider callback to the callback of one provider delivery of
 * a platform account. adapters/deliveries-repository.ts stores them as they are (DeliveryDoc).
 */

/** One attempt as recorded: never a header, a secret, a URL or a body. */
export interface AttemptRecord {
  round: number;
  attempt: number;
  at: Date;
  /** The receiver's HTTP status, or null when no response came. */
  statusCode: number | null;
  latencyMs: number;
  /** Why no response came: timeout, connect, dns, refused_address, tls, reset, other. */
  errorClass: string | null;
  verdict: 'delivered' | 'retry' | 'permanent';
}

/** What every delivery has, whatever its kind. */
interface DeliveryCommon {
  /** Stable across retries and redeliveries (the partner envelope's id). */
  _id: string;
  /** The event type: the webhook's type, or the provider event's `eventType`. */
  type: string;
  /** The Kafka event it came from (null for system.test). */
  sourceEventId: string | null;
  occurredAt: string;
  /** The exact JSON sent on every attempt, serialized once. */
  body: string;
  status: DeliveryStatus;
  /** 1, plus one per redelivery. */
  round: number;
  /** The attempt of this round that is scheduled next. */
  nextAttempt: number;
  nextAttemptAt: Date | null;
  attempts: AttemptRecord[];
  /** Why a delivery ended without success (failed, dead-lettered or cancelled). */
  reason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The state of a delivery just created, of either kind: pending, its first attempt due now. */
export function newDeliveryState(now: Date) {
  return {
    status: 'pending' as const,
    round: 1,
    nextAttempt: 1,
    nextAttemptAt: now,
    attempts: [] as AttemptRecord[],
    reason: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * One webhook to one installation of a tenant (`partner-webhook`). The tenant API sees these and
 * nothing else: its queries filter by the tenant and this kind.
 */
export interface PartnerWebhookDelivery extends DeliveryCommon {
  /** Which signing scheme and retry policy apply (see domain/delivery-kinds.ts). */
  kind: 'partner-webhook';
  tenantId: string;
  installationId: string;
  /**
   * What the event is about, for the per-order sequence (`order:<orderId>`): one installation's
   * webhooks of one order are delivered in the order their events came (domain/webhook-sequence.ts).
   * Absent on events about no order (system.test) and on deliveries stored before the rule.
   */
  subject?: string;
}

/**
 * One event of a provider delivery to that delivery's callback (`provider-callback`), owned by the
 * platform account, not by any tenant. The callback URL stays sealed at rest (its path carries a
 * confidential token) and is opened for each attempt only.
 */
export interface ProviderCallbackDelivery extends DeliveryCommon {
  kind: 'provider-callback';
  accountId: string;
  providerDeliveryId: string;
  /** Sealed under WEBHOOK_SECRET_TRANSPORT_KEY, bound to the provider delivery. */
  callbackUrlSealed: string;
  /** Whether the event's status is terminal: after one, no nonterminal event of the delivery is sent. */
  terminal: boolean;
  /**
   * A terminal callback's first request was about to leave then: written before the request, so the
   * terminal rule sees it even when the outcome is never recorded (a crash mid-request, the
   * database away). Absent on nonterminal callbacks and on terminal ones never sent.
   */
  sendStartedAt?: Date;
}

export type Delivery = PartnerWebhookDelivery | ProviderCallbackDelivery;

/**
 * Who owns the endpoint a delivery goes to: the installation, or the platform account. It keys the
 * attempt messages and is the scheduler's unit (its slots and its circuit), so one failing endpoint
 * holds up only itself.
 */
export function endpointOwnerOf(delivery: Delivery): string {
  return delivery.kind === 'partner-webhook' ? delivery.installationId : delivery.accountId;
}

/** The owner a delivery's writes are scoped to: its tenant and installation, or its platform account. */
export function ownerOf(delivery: Delivery): { tenantId: string; installationId: string } | { accountId: string } {
  return delivery.kind === 'partner-webhook'
    ? { tenantId: delivery.tenantId, installationId: delivery.installationId }
    : { accountId: delivery.accountId };
}

/** The state fields a change of a delivery sets (an attempt recorded, a new round). */
export type DeliveryStateChange = Partial<
  Pick<Delivery, 'status' | 'round' | 'nextAttempt' | 'nextAttemptAt' | 'reason' | 'updatedAt'>
>;
