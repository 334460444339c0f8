import type { DeliveryStatus } from '../domain/delivery-status';

/**
 * The webhook deliveries as the use cases read and write them: one webhook to one installation,
 * with its attempts. adapters/deliveries-repository.ts stores them as they are (DeliveryDoc).
 */

/** One attempt as recorded: never a header, a secret or a body. */
export interface AttemptRecord {
  round: number;
  attempt: number;
  at: Date;
  /** The partner's HTTP status, or null when no response came. */
  statusCode: number | null;
  latencyMs: number;
  /** Why no response came: timeout, connect, dns, refused_address, tls, reset, other. */
  errorClass: string | null;
  verdict: 'delivered' | 'retry' | 'permanent';
}

/**
 * One webhook to one installation (`_id` = the envelope id, stable across retries and
 * redeliveries). `body` is the exact JSON sent on every attempt.
 */
export interface Delivery {
  _id: string;
  tenantId: string;
  installationId: string;
  /** Which signing scheme and retry policy apply (see usecases/delivery-kinds.ts). */
  kind: 'partner-webhook';
  type: string;
  /** The domain event it came from (null for system.test). */
  sourceEventId: string | null;
  occurredAt: string;
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
