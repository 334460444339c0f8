import type { Db } from 'mongodb';
import { indexPlanOf, type IndexPlan } from '@marketplace/store';
import { DeliveriesRepository } from './deliveries-repository';
import { InstallationCopiesRepository } from './installation-copies-repository';
import { MetaRepository } from './meta-repository';

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

/** What the use cases reach storage through: one repository per collection. */
export interface WebhookStore {
  deliveries: DeliveriesRepository;
  installations: InstallationCopiesRepository;
  meta: MetaRepository;
}

export const DELIVERIES = DeliveriesRepository.storage.collection;

export function webhookStore(db: Db): WebhookStore {
  return { deliveries: new DeliveriesRepository(db), installations: new InstallationCopiesRepository(db), meta: new MetaRepository(db) };
}

/** The indexes of the sender's collections, as each repository declares them. */
export const webhookIndexes: IndexPlan = indexPlanOf(DeliveriesRepository.storage, InstallationCopiesRepository.storage, MetaRepository.storage);
