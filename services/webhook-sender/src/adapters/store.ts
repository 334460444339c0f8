import type { Collection, Db } from 'mongodb';
import type { OutboxFields } from '@marketplace/outbox';
import type { IndexPlan } from '@marketplace/store';
import type { InstallationCopy } from '../domain/installation';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dead_lettered' | 'cancelled';

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
export interface DeliveryDoc {
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

/** Facts about this sender's database (`sending-since`: when it first started). */
export interface MetaDoc {
  _id: string;
  at: Date;
}

export interface WebhookCollections {
  meta: Collection<MetaDoc>;
  installations: Collection<InstallationCopy>;
  deliveries: Collection<DeliveryDoc & OutboxFields>;
}

export const DELIVERIES = 'deliveries';

export function webhookCollections(db: Db): WebhookCollections {
  return { meta: db.collection('meta'), installations: db.collection('installations'), deliveries: db.collection(DELIVERIES) };
}

export const webhookIndexes: IndexPlan = {
  installations: [{ key: { tenantId: 1 }, name: 'tenant' }],
  deliveries: [{ key: { tenantId: 1, installationId: 1, createdAt: -1 }, name: 'installation_recent' }],
};
