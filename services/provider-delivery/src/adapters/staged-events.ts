import type { OutboxFields, OutboxRelay } from '@marketplace/outbox';
import type { StagedEvents } from '../usecases/ports';
import type { DeliveryDoc } from './deliveries-repository';
import { DeliveriesRepository } from './deliveries-repository';
import { PlatformAccountsRepository } from './platform-accounts-repository';

/**
 * The outbox relay's fast path for this service's documents: a use case says which delivery or
 * account it wrote, and the collection it lives in stays here. The relay's flush never throws and
 * keeps its caller at most a few seconds; its sweep publishes whatever a failed flush left.
 */
export function stagedEvents(relay: Pick<OutboxRelay, 'flush' | 'flushWritten'>): StagedEvents {
  return {
    publishDelivery: (providerDeliveryId) => relay.flush(DeliveriesRepository.storage.collection, providerDeliveryId),
    publishInsertedDelivery: (inserted: DeliveryDoc & OutboxFields) =>
      relay.flushWritten(DeliveriesRepository.storage.collection, inserted),
    publishAccount: (accountId) => relay.flush(PlatformAccountsRepository.storage.collection, accountId),
  };
}
