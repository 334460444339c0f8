import type { OutboxRelay } from '@marketplace/outbox';
import type { PlatformEvents } from '../../usecases/ports';
import { ConnectionsRepository } from './connections-repository';
import { DispatchesRepository } from './dispatches-repository';

/** The collections of the platform side whose documents carry an outbox (the relay reads them by name). */
export const PLATFORM_OUTBOXES = [DispatchesRepository.storage.collection, ConnectionsRepository.storage.collection];

/** Publishes a dispatch's or a connection's waiting events through the outbox relay. */
export function outboxPlatformEvents(outbox: Pick<OutboxRelay, 'flush'>): PlatformEvents {
  return {
    dispatch: (assignmentId) => outbox.flush(DispatchesRepository.storage.collection, assignmentId),
    connection: (connectionId) => outbox.flush(ConnectionsRepository.storage.collection, connectionId),
  };
}
