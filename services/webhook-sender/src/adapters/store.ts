import type { Db } from 'mongodb';
import { indexPlanOf, type IndexPlan } from '@marketplace/store';
import type { WebhookStore } from '../usecases/ports';
import { AccountSecretsRepository } from './account-secrets-repository';
import { DeliveriesRepository, type OutboxFlush } from './deliveries-repository';
import { InstallationCopiesRepository } from './installation-copies-repository';
import { MetaRepository } from './meta-repository';

export type { WebhookStore };

export const DELIVERIES = DeliveriesRepository.storage.collection;

/** The repositories the use cases reach storage through; `outbox` publishes what deliveries stage. */
export function webhookStore(db: Db, outbox?: OutboxFlush): WebhookStore {
  return {
    deliveries: new DeliveriesRepository(db, outbox),
    installations: new InstallationCopiesRepository(db),
    accountSecrets: new AccountSecretsRepository(db),
    meta: new MetaRepository(db),
  };
}

/** The indexes of the sender's collections, as each repository declares them. */
export const webhookIndexes: IndexPlan = indexPlanOf(
  DeliveriesRepository.storage,
  InstallationCopiesRepository.storage,
  AccountSecretsRepository.storage,
  MetaRepository.storage,
);
