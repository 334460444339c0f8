import type { Db } from 'mongodb';
import { indexPlanOf, type IndexPlan } from '@marketplace/store';
import { BranchCopiesRepository } from './branch-copies-repository';
import { DeliveriesRepository } from './deliveries-repository';
import { InstallationCopiesRepository } from './installation-copies-repository';
import { ConnectionInstallationsRepository } from './dispatch/connection-installations-repository';
import { ConnectionsRepository } from './dispatch/connections-repository';
import { DispatchesRepository } from './dispatch/dispatches-repository';
import { DispatchRulesRepository } from './dispatch/dispatch-rules-repository';
import { ConnectionScoresRepository } from './dispatch/connection-scores-repository';

/**
 * Delivery-assignment's database: the deliveries it owns, and its copies of what other services
 * publish (installations from gateway-auth, branches from catalog; an order's facts live on its
 * delivery). Every method on owned data takes the tenant and puts it in the filter.
 */
export interface DeliveryStore {
  deliveries: DeliveriesRepository;
  installations: InstallationCopiesRepository;
  branches: BranchCopiesRepository;
  /** The marketplace as a platform of the provider contract: connections, their installations, dispatches. */
  connections: ConnectionsRepository;
  connectionInstallations: ConnectionInstallationsRepository;
  dispatches: DispatchesRepository;
  dispatchRules: DispatchRulesRepository;
  connectionScores: ConnectionScoresRepository;
}

export function deliveryStore(db: Db): DeliveryStore {
  return {
    deliveries: new DeliveriesRepository(db),
    installations: new InstallationCopiesRepository(db),
    branches: new BranchCopiesRepository(db),
    connections: new ConnectionsRepository(db),
    connectionInstallations: new ConnectionInstallationsRepository(db),
    dispatches: new DispatchesRepository(db),
    dispatchRules: new DispatchRulesRepository(db),
    connectionScores: new ConnectionScoresRepository(db),
  };
}

/** The collection whose documents carry an outbox (the shared relay reads it by name). */
export const DELIVERIES = DeliveriesRepository.storage.collection;

/** Each repository's collection and the indexes serving its queries (test/repositories.int.test.ts proves them). */
export const deliveryIndexes: IndexPlan = indexPlanOf(
  DeliveriesRepository.storage,
  InstallationCopiesRepository.storage,
  BranchCopiesRepository.storage,
  ConnectionsRepository.storage,
  ConnectionInstallationsRepository.storage,
  DispatchesRepository.storage,
  DispatchRulesRepository.storage,
  ConnectionScoresRepository.storage,
);
