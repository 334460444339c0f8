import type { Db } from 'mongodb';
import { indexPlanOf, type IndexPlan } from '@marketplace/store';
import { ApiKeysRepository } from './api-keys-repository';
import { DeliveriesRepository } from './deliveries-repository';
import { DriversRepository } from './drivers-repository';
import { PlatformAccountsRepository } from './platform-accounts-repository';

/**
 * provider-delivery's database: the platform accounts, their API keys, the deliveries they
 * create, and the drivers who carry them. Every method on an account's data takes the account
 * (`AccountOwner`) and filters by it.
 */
export interface ProviderStore {
  accounts: PlatformAccountsRepository;
  apiKeys: ApiKeysRepository;
  deliveries: DeliveriesRepository;
  drivers: DriversRepository;
}

export function providerStore(db: Db): ProviderStore {
  return {
    accounts: new PlatformAccountsRepository(db),
    apiKeys: new ApiKeysRepository(db),
    deliveries: new DeliveriesRepository(db),
    drivers: new DriversRepository(db),
  };
}

/** Each repository's collection and the indexes serving its queries (test/repositories.int.test.ts proves them). */
export const providerIndexes: IndexPlan = indexPlanOf(
  PlatformAccountsRepository.storage,
  ApiKeysRepository.storage,
  DeliveriesRepository.storage,
  DriversRepository.storage,
);

/** The collections whose documents stage events (delivery events; secret rotations): the outbox relay sweeps them. */
export const providerOutboxCollections: string[] = [
  DeliveriesRepository.storage.collection,
  PlatformAccountsRepository.storage.collection,
];
