import type { Db } from 'mongodb';
import { indexPlanOf, type IndexPlan } from '@marketplace/store';
import { AccountSecretsRepository } from './account-secrets-repository';
import { DeliveriesRepository } from './deliveries-repository';
import { InstallationCopiesRepository } from './installation-copies-repository';
import { MetaRepository } from './meta-repository';

/** What the use cases reach storage through: one repository per collection. */
export interface WebhookStore {
  deliveries: DeliveriesRepository;
  installations: InstallationCopiesRepository;
  accountSecrets: AccountSecretsRepository;
  meta: MetaRepository;
}

export const DELIVERIES = DeliveriesRepository.storage.collection;

export function webhookStore(db: Db): WebhookStore {
  return {
    deliveries: new DeliveriesRepository(db),
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
